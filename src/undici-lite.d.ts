// Types for the undici internals the remote client loads directly (see client.ts for why).
declare module 'undici/lib/dispatcher/client.js' {
  import type { Client } from 'undici';
  const ClientClass: typeof Client;
  export default ClientClass;
}
declare module 'undici/lib/dispatcher/pool.js' {
  import type { Pool } from 'undici';
  const PoolClass: typeof Pool;
  export default PoolClass;
}
declare module 'undici/lib/api/api-request.js' {
  import type { Dispatcher } from 'undici';
  const request: Dispatcher['request'];
  export default request;
}
