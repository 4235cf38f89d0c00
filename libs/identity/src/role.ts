export enum Role {
  OWNER = 'owner',
  ADMIN = 'admin',
  MEMBER = 'member',
  ADJUDICATOR = 'adjudicator',
  ANNOTATOR = 'annotator',
  VIEWER = 'viewer',
}

export const ROLES = Object.values(Role);

/**
 * Order used where one role must not exceed another (an API key's role never
 * above its creator's, only owners grant owner). Adjudicators and annotators
 * label trajectories; they sit below members, who run campaigns.
 */
const RANK: Record<Role, number> = {
  [Role.OWNER]: 6,
  [Role.ADMIN]: 5,
  [Role.MEMBER]: 4,
  [Role.ADJUDICATOR]: 3,
  [Role.ANNOTATOR]: 2,
  [Role.VIEWER]: 1,
};

export function roleAtLeast(role: Role, minimum: Role): boolean {
  return RANK[role] >= RANK[minimum];
}

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as string[]).includes(value);
}
