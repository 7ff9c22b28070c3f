// The ids people type: a Relay global id, a full uuid, or the first characters of a uuid as the
// tables show them (8, spec §9; at least 4). A prefix is looked up among the user's own records —
// query history, saved segments, the day's Smart Segments, or (administrators) the users — and must
// name exactly one. Users can also be named by email.
import { fromGlobalId, toGlobalId } from '../client/index.js';
import type { Api } from './api.js';
import { CliError } from './errors.js';
import { graphql, operation } from './graphql.js';
import { shortId } from './format.js';
import { readAll } from './paging.js';
import idsHistoryNode, { type idsHistoryQuery } from './__generated__/idsHistoryQuery.graphql.js';
import idsSavedSegmentsNode, { type idsSavedSegmentsQuery } from './__generated__/idsSavedSegmentsQuery.graphql.js';
import idsDailySegmentsNode, { type idsDailySegmentsQuery } from './__generated__/idsDailySegmentsQuery.graphql.js';
import idsUsersNode, { type idsUsersQuery } from './__generated__/idsUsersQuery.graphql.js';
import idsNodeNode, { type idsNodeQuery } from './__generated__/idsNodeQuery.graphql.js';

const History = operation<idsHistoryQuery>(
  idsHistoryNode,
  graphql`
    query idsHistoryQuery($first: Int!, $after: String) {
      queryHistory(first: $first, after: $after) {
        edges {
          node {
            id
            queryId
            naturalLanguage
          }
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  `,
);

const SavedSegments = operation<idsSavedSegmentsQuery>(
  idsSavedSegmentsNode,
  graphql`
    query idsSavedSegmentsQuery($first: Int!, $after: String) {
      savedSegments(first: $first, after: $after) {
        edges {
          node {
            id
            segmentId
            description
          }
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  `,
);

const DailySegments = operation<idsDailySegmentsQuery>(
  idsDailySegmentsNode,
  graphql`
    query idsDailySegmentsQuery($date: Date, $first: Int!, $after: String) {
      dailySegments(date: $date, first: $first, after: $after) {
        pageInfo {
          hasNextPage
          endCursor
        }
        edges {
          node {
            id
            segmentId
            date
            isUnlocked
            hasError
            customerCount
            preset {
              name
              category {
                isLocked
              }
            }
          }
        }
      }
    }
  `,
);

const Users = operation<idsUsersQuery>(
  idsUsersNode,
  graphql`
    query idsUsersQuery($search: String, $first: Int!, $after: String) {
      adminUsers(search: $search, first: $first, after: $after) {
        edges {
          node {
            id
            userId
            email
            firstName
            lastName
            isBanned
          }
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  `,
);

const NodeType = operation<idsNodeQuery>(
  idsNodeNode,
  graphql`
    query idsNodeQuery($id: ID!) {
      node(id: $id) {
        __typename
        id
      }
    }
  `,
);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PREFIX = /^[0-9a-f-]{4,36}$/i;

/** The global id when the input is one of the given type, or a full uuid. */
function direct(input: string, typename: string): string | null {
  const decoded = fromGlobalId(input);
  if (decoded?.typename === typename && UUID.test(decoded.id)) return input;
  if (UUID.test(input)) return toGlobalId(typename, input.toLowerCase());
  return null;
}

/** The one item whose raw id is the input or starts with it. */
export function pick<T>(items: readonly T[], input: string, rawId: (t: T) => string, what: string, where: string): T {
  if (!PREFIX.test(input)) throw new CliError(`"${input}" is not an id: give the id shown by crm (at least its first 4 characters)`);
  const key = input.toLowerCase();
  const found = items.filter((t) => rawId(t).startsWith(key));
  if (found.length === 1) return found[0];
  if (found.length === 0) throw new CliError(`No ${what} with an id starting with ${input} ${where}`);
  throw new CliError(`${input} matches ${found.length} ${what}s (${found.slice(0, 4).map((t) => shortId(rawId(t))).join(', ')}…): give more characters`);
}

const history = async (api: Api) => (await readAll((first, after) => api.request(History, { first, after }).then((r) => r.queryHistory))).items;
const daySegments = async (api: Api, date: string | null) =>
  (await readAll((first, after) => api.request(DailySegments, { date, first, after }).then((r) => r.dailySegments))).items;

export async function resolveQueryId(api: Api, input: string): Promise<{ id: string; queryId: string }> {
  const gid = direct(input, 'CustomerQuery');
  if (gid) return { id: gid, queryId: fromGlobalId(gid)!.id };
  const q = pick(await history(api), input, (h) => h.queryId, 'query', 'in your query history (crm history)');
  return { id: q.id, queryId: q.queryId };
}

export async function resolveSavedSegment(api: Api, input: string) {
  const all = (await readAll((first, after) => api.request(SavedSegments, { first, after }).then((r) => r.savedSegments))).items;
  const gid = direct(input, 'SavedSegment');
  const found = gid ? all.find((s) => s.id === gid) : pick(all, input, (s) => s.segmentId, 'saved segment', 'among your saved segments (crm segments)');
  if (!found) throw new CliError(`No saved segment ${input}`, 'See crm segments');
  return found;
}

export type DailySegmentRef = idsDailySegmentsQuery['response']['dailySegments']['edges'][number]['node'];

/** A Smart Segment of the day (default today). */
export async function resolveDailySegment(api: Api, input: string, date?: string): Promise<DailySegmentRef> {
  const day = await daySegments(api, date ?? null);
  const gid = direct(input, 'DailySegment');
  const found = gid ? day.find((s) => s.id === gid) : pick(day, input, (s) => s.segmentId, 'Smart Segment', `on ${date ?? 'today'}'s list (crm smart${date ? ` --date ${date}` : ''})`);
  if (!found) throw new CliError(`No Smart Segment ${input} on ${date ?? 'today'}'s list`, date ? undefined : 'For another day, add --date YYYY-MM-DD');
  return found;
}

/** What `crm export` exports: a stored query or a Smart Segment (today's, or any by full id). */
export async function resolveExportSource(api: Api, input: string): Promise<{ id: string; rawId: string; kind: 'query' | 'smart' }> {
  const decoded = fromGlobalId(input);
  if (decoded && UUID.test(decoded.id) && (decoded.typename === 'CustomerQuery' || decoded.typename === 'DailySegment')) {
    return { id: input, rawId: decoded.id, kind: decoded.typename === 'CustomerQuery' ? 'query' : 'smart' };
  }
  if (UUID.test(input)) {
    for (const [typename, kind] of [['CustomerQuery', 'query'], ['DailySegment', 'smart']] as const) {
      const id = toGlobalId(typename, input.toLowerCase());
      if ((await api.request(NodeType, { id })).node) return { id, rawId: input.toLowerCase(), kind };
    }
    throw new CliError(`No query or Smart Segment with id ${input}`);
  }
  const [queries, today] = await Promise.all([history(api), daySegments(api, null)]);
  const candidates = [
    ...queries.map((q) => ({ id: q.id, rawId: q.queryId, kind: 'query' as const })),
    ...today.map((s) => ({ id: s.id, rawId: s.segmentId, kind: 'smart' as const })),
  ];
  return pick(candidates, input, (c) => c.rawId, 'query or Smart Segment', "in your history or today's Smart Segments");
}

export type UserRef = idsUsersQuery['response']['adminUsers']['edges'][number]['node'];

/** A user by email, id or id prefix (administrators). */
export async function resolveUser(api: Api, input: string): Promise<UserRef> {
  const list = async (search: string | null) => (await readAll((first, after) => api.request(Users, { search, first, after }).then((r) => r.adminUsers))).items;
  if (input.includes('@')) {
    const user = (await list(input)).find((u) => u.email.toLowerCase() === input.toLowerCase());
    if (!user) throw new CliError(`No user with email ${input}`);
    return user;
  }
  const users = await list(null);
  const gid = direct(input, 'User');
  const found = gid ? users.find((u) => u.id === gid) : pick(users, input, (u) => u.userId, 'user', 'among the users (crm admin users)');
  if (!found) throw new CliError(`No user with id ${input}`);
  return found;
}
