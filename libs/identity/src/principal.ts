import type { Role } from './role.js';

/** Who is calling, as established by a verified credential. */
export interface Principal {
  kind: 'user' | 'api_key';
  orgId: string;
  role: Role;
  userId: string | null;
  apiKeyId: string | null;
  sessionId: string | null;
  /**
   * Runs the platform (manages the default price book): from users.platform_admin
   * for a session, always false for an API key, so no key can act as the platform.
   */
  platformAdmin: boolean;
}
