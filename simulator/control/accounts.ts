// The control plane's keys and workspaces (/_sim/api-keys, /_sim/workspaces): API keys minted
// with or without scopes, the scopes of the key sent, and workspaces of new organizations.
import * as z from 'zod/mini';
import { addApiKey } from '../core/accounts.js';
import { ApiError, notFound } from '../core/errors.js';
import { route } from '../core/http.js';
import { SCOPES } from '../core/world.js';
import { arr, doc, nullable, obj, oneOf, record, str, uuid, type Infer } from '../core/schema.js';

const NewApiKey = record({
  key: doc(z.string(), {
    description: 'the API key, shown only now',
    example: 'sk_sim_0123456789abcdef0123456789abcdef01234567',
  }),
  workspace_id: uuid(),
  scopes: doc(nullable(z.array(oneOf(SCOPES))), 'null: full access'),
});

const CurrentApiKey = record({
  workspace_id: uuid(),
  scopes: doc(nullable(z.array(oneOf(SCOPES))), 'null: full access (also when no key is sent)'),
});

const NewWorkspace = record({
  workspace_id: uuid(),
  api_key: doc(z.string(), {
    description: 'a full-access API key of the new workspace',
    example: 'sk_sim_0123456789abcdef0123456789abcdef01234567',
  }),
});

const ApiKeyBody = obj({
  scopes: arr(oneOf(SCOPES), {
    max: SCOPES.length,
    description: 'the scopes of a restricted key; none or empty: full access',
    example: ['calls:read'],
  }),
  workspace_id: str({
    min: 1,
    max: 36,
    description: "the workspace (default: the key's, or the seeded one)",
    example: '3f0c8a52-7d1e-4b6a-9c1d-2a5e8f4b7c90',
  }),
});

const WorkspaceBody = obj({
  name: str({ min: 1, max: 100, description: 'default "Workspace <n>"', example: 'Other' }),
});

/** Keys minted and shown, workspaces added. */
export const accountRoutes = [
  route({
    method: 'POST',
    path: '/_sim/api-keys',
    summary: 'Mint an API key',
    description:
      'A full-access key, or one limited to `scopes`, of the workspace `workspace_id`. A key sent with the request may only mint keys of its own workspace.',
    body: ApiKeyBody,
    responses: { 201: { description: 'Minted', schema: NewApiKey } },
    errors: { 403: ['forbidden'], 404: ['not_found'] },
    handler: (c) => {
      const b = c.body;
      const ws = b.workspace_id ?? c.auth.workspace.id;
      if (c.auth.key && ws !== c.auth.key.workspace_id)
        throw new ApiError(
          403,
          'forbidden',
          "An API key of one workspace cannot mint keys for another; send no key, or that workspace's key.",
        );
      const workspace = c.data.workspaces.find((w) => w.id === ws);
      if (!workspace) throw notFound(`No workspace ${ws}.`);
      const user = c.data.users.find((u) => u.organization_id === workspace.organization_id)!;
      const scopes = b.scopes && b.scopes.length > 0 ? [...new Set(b.scopes)] : null;
      const key = addApiKey(c.data, c.s.rng, c.s.now, workspace.id, user.id, scopes);
      return { status: 201, body: { key, workspace_id: workspace.id, scopes } satisfies Infer<typeof NewApiKey> };
    },
  }),
  route({
    method: 'GET',
    path: '/_sim/api-keys/current',
    summary: 'Show the key sent',
    description:
      "The workspace and scopes of the API key sent (none sent: the seeded workspace, full access); `vmv mcp` lists only the tools a key's scopes allow.",
    responses: { 200: { description: 'The key', schema: CurrentApiKey } },
    handler: (c) => ({
      body: {
        workspace_id: c.auth.workspace.id,
        scopes: c.auth.key?.scopes ?? null,
      } satisfies Infer<typeof CurrentApiKey>,
    }),
  }),
  route({
    method: 'POST',
    path: '/_sim/workspaces',
    summary: 'Add a workspace',
    description: 'A workspace of a new organization (its own 50.00 USD wallet) with its owner and a full-access key.',
    body: WorkspaceBody,
    responses: { 201: { description: 'Added', schema: NewWorkspace } },
    handler: (c) => {
      const { workspace, key } = c.world.addWorkspace(c.s, c.body.name ?? `Workspace ${c.data.workspaces.length + 1}`);
      return { status: 201, body: { workspace_id: workspace.id, api_key: key } satisfies Infer<typeof NewWorkspace> };
    },
  }),
];
