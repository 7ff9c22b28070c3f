// Who may load which Relay node. `node(id)`/`nodes(ids)` and Pothos' own re-loads of an object go
// through each node type's `findUnique`, so the rule lives there: a node the viewer may not see is
// loaded with a where-clause that matches nothing, and comes back as null, exactly like an id that
// does not exist. Ids that are malformed, of an unknown type or not uuids are null too.
import type { RequestContext } from '../context.js';
import { isUuid } from '../errors.js';

/** Matches no row: every id column is a generated v4 uuid. */
export const NIL_UUID = '00000000-0000-0000-0000-000000000000';

export type NodeRule =
  /** Rows with a userId column: only their owner. */
  | 'owner'
  /** The User type: the user themself, or an administrator. */
  | 'selfOrAdmin'
  /**
   * Shared content users see in a list (Smart Segment categories and presets): a signed-in user
   * loads what that list's where-clause shows (active ones); an administrator loads all of it.
   */
  | 'listed'
  /** Administrators only. */
  | 'admin';

const nodeTypes = new Set<string>();

/** The `findUnique` of a node type under a rule; registers the type as loadable through node(id). */
export function nodeAccess(typename: string, rule: 'owner'): (id: string, ctx: RequestContext) => { id: string; userId: string };
export function nodeAccess<W extends object>(typename: string, rule: 'listed', listWhere: W): (id: string, ctx: RequestContext) => { id: string } & Partial<W>;
export function nodeAccess(typename: string, rule: Exclude<NodeRule, 'owner' | 'listed'>): (id: string, ctx: RequestContext) => { id: string };
export function nodeAccess(typename: string, rule: NodeRule, listWhere?: object) {
  nodeTypes.add(typename);
  return (id: string, ctx: RequestContext) => {
    const user = ctx.user;
    const safeId = isUuid(id) ? id : NIL_UUID;
    switch (rule) {
      case 'listed':
        return user?.isAdmin ? { id: safeId } : { id: user ? safeId : NIL_UUID, ...listWhere };
      case 'owner':
        return { id: safeId, userId: user?.id ?? NIL_UUID };
      case 'selfOrAdmin':
        return { id: user && (user.isAdmin || user.id === safeId) ? safeId : NIL_UUID };
      case 'admin':
        return { id: user?.isAdmin ? safeId : NIL_UUID };
    }
  };
}

/** Whether a decoded global id can name a node at all (known node type, uuid). */
export function isLoadableId(id: { typename: string; id: string } | null | undefined): boolean {
  return Boolean(id && nodeTypes.has(id.typename) && isUuid(id.id));
}

/** The types registered so far (for the authorization matrix test). */
export const registeredNodeTypes = (): string[] => [...nodeTypes].sort();
