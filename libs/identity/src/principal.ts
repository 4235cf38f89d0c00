import type { Role } from './role.js';

/** Who is calling, as established by a verified credential. */
export interface Principal {
  kind: 'user' | 'api_key';
  orgId: string;
  role: Role;
  userId: string | null;
  apiKeyId: string | null;
  sessionId: string | null;
}
