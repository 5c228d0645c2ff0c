// Who a request is made as: its Bearer API key (a /v1 route needs one; the control plane takes one to
// pick a workspace, or acts in the seeded workspace), the key's scopes, and the workspace's plan.
import { hashKey } from './accounts.js';
import { ApiError, unauthorized } from './errors.js';
import type { Auth, Route } from './http.js';
import type { World } from './world.js';

export function authenticate(data: World, authorization: string | undefined, isApi: boolean, route: Route): Auth {
  const m = authorization ? /^Bearer\s+(\S+)\s*$/i.exec(authorization) : null;
  if (!m) {
    if (isApi)
      throw unauthorized(
        authorization
          ? 'The Authorization header must be "Bearer <API key>".'
          : 'Missing API key: send Authorization: Bearer <API key>.',
      );
    return authFor(data, null, data.meta.default_workspace_id);
  }
  const hash = hashKey(m[1]);
  const key = data.api_keys.find((k) => k.hash === hash);
  if (!key) throw unauthorized('The API key is not valid.');
  if (isApi && route.scope && key.scopes !== null) {
    const ok = route.scope !== 'full' && key.scopes.includes(route.scope);
    if (!ok)
      throw new ApiError(
        403,
        'forbidden',
        route.scope === 'full'
          ? 'This endpoint needs a full-access API key.'
          : `This API key lacks the ${route.scope} scope.`,
      );
  }
  return authFor(data, key, key.workspace_id);
}

/** 403 plan_not_included when the route needs a plan feature the workspace lacks. */
export function planRefusal(route: Route, auth: Auth): ApiError | null {
  if (!route.plan || auth.workspace.plan[route.plan]) return null;
  return new ApiError(
    403,
    'plan_not_included',
    `The workspace's plan does not include ${route.plan === 'content' ? 'Content (videos)' : 'the assistant'}.`,
  );
}

/** Why the key may not call the route (its scopes, the workspace's plan), or null: for a call made inside the simulator (the assistant's tools). */
export function refusal(route: Route, auth: Auth): ApiError | null {
  const noPlan = planRefusal(route, auth);
  if (noPlan) return noPlan;
  const key = auth.key;
  if (key && key.scopes !== null && route.scope && !(route.scope !== 'full' && key.scopes.includes(route.scope)))
    return new ApiError(
      403,
      'forbidden',
      route.scope === 'full' ? 'This needs a full-access API key.' : `This API key lacks the ${route.scope} scope.`,
    );
  return null;
}

export function authFor(data: World, key: Auth['key'], workspaceId: string): Auth {
  const workspace = data.workspaces.find((w) => w.id === workspaceId)!;
  const org = data.organizations.find((o) => o.id === workspace.organization_id)!;
  const user = data.users.find((u) => (key ? u.id === key.user_id : u.organization_id === org.id))!;
  return { key, workspace, org, user };
}
