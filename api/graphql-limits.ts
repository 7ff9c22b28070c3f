// Limits on what one GraphQL request may ask for, checked before any resolver runs:
// - graphql-armor: depth, aliases, tokens, directives and a per-field cost;
// - a page cost: the number of list items a request could return, multiplying the page sizes of
//   nested connections (`first`/`last`, or the connection's default) — 1,000 aliases of
//   `queryHistory { customers(first: 100) }` would be millions;
// - no batched requests (Yoga's default), so one HTTP request is one operation.
// A refused request gets HTTP 400 and `extensions.code` QUERY_TOO_COMPLEX within milliseconds.
import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import { findInputProblem } from './http/input-guard.js';
import type { Plugin } from 'graphql-yoga';
import { createGraphQLError } from 'graphql-yoga';
import {
  getNamedType,
  isObjectType,
  Kind,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLError,
  type GraphQLObjectType,
  type GraphQLSchema,
  type SelectionSetNode,
  type ValueNode,
  visit,
  BREAK,
} from 'graphql';

export const QUERY_TOO_COMPLEX = 'QUERY_TOO_COMPLEX';

export const LIMITS = {
  maxDepth: 14,
  maxAliases: 15,
  maxTokens: 2000,
  maxDirectives: 30,
  maxCost: 1_000_000,
  /** List items a request may return at most (page sizes of nested lists multiplied). */
  maxPageCost: 20_000,
  /** Page size assumed for a connection asked without first/last (the server's default page). */
  defaultPageSize: 20,
};

const tag = (error: GraphQLError) => {
  // graphql-armor's errors carry no code; give them ours so clients can tell what happened.
  Object.assign(error.extensions as Record<string, unknown>, { code: QUERY_TOO_COMPLEX, http: { status: 400 } });
};

export function armorPlugins(production: boolean): Plugin[] {
  const onReject = [(_ctx: unknown, error: GraphQLError) => tag(error)];
  return [
    EnvelopArmorPlugin({
      maxDepth: { n: LIMITS.maxDepth, onReject, flattenFragments: true },
      maxAliases: { n: LIMITS.maxAliases, onReject },
      maxTokens: { n: LIMITS.maxTokens, onReject },
      maxDirectives: { n: LIMITS.maxDirectives, onReject },
      costLimit: { maxCost: LIMITS.maxCost, onReject },
      // Outside production, suggestions ("Did you mean …?") help developers.
      blockFieldSuggestion: { enabled: production },
    }) as Plugin,
  ];
}

function pageSize(field: FieldNode, variables: Record<string, unknown>): number | null {
  let size: number | null = null;
  for (const arg of field.arguments ?? []) {
    if (arg.name.value !== 'first' && arg.name.value !== 'last') continue;
    const v = valueOf(arg.value, variables);
    if (typeof v === 'number') size = Math.max(size ?? 0, v);
  }
  return size;
}

function valueOf(node: ValueNode, variables: Record<string, unknown>): unknown {
  if (node.kind === Kind.INT) return Number(node.value);
  if (node.kind === Kind.VARIABLE) return variables[node.name.value];
  return null;
}

/** The most list items the selection could produce (nested lists multiply). */
function pageCost(
  schema: GraphQLSchema,
  type: GraphQLObjectType,
  selectionSet: SelectionSetNode,
  fragments: Record<string, FragmentDefinitionNode>,
  variables: Record<string, unknown>,
  seen: Set<string>,
): number {
  let total = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FRAGMENT_SPREAD) {
      const fragment = fragments[selection.name.value];
      if (!fragment || seen.has(fragment.name.value)) continue;
      const onType = schema.getType(fragment.typeCondition.name.value);
      if (isObjectType(onType)) total += pageCost(schema, onType, fragment.selectionSet, fragments, variables, new Set([...seen, fragment.name.value]));
      continue;
    }
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      const onType = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : type;
      if (isObjectType(onType)) total += pageCost(schema, onType, selection.selectionSet, fragments, variables, seen);
      continue;
    }
    const field = type.getFields()[selection.name.value];
    if (!field || !selection.selectionSet) continue;
    const named = getNamedType(field.type);
    if (!isObjectType(named)) continue;
    const isConnection = named.name.endsWith('Connection');
    const size = isConnection ? (pageSize(selection, variables) ?? LIMITS.defaultPageSize) : 1;
    const inner = pageCost(schema, named, selection.selectionSet, fragments, variables, seen);
    total += size * Math.max(1, inner);
  }
  return total;
}

/** Refuses, before execution, a request whose nested pages could return too many items. */
export function usePageCostLimit(): Plugin {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const fragments: Record<string, FragmentDefinitionNode> = {};
      for (const d of args.document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments[d.name.value] = d;
      const variables = (args.variableValues ?? {}) as Record<string, unknown>;
      for (const d of args.document.definitions) {
        if (d.kind !== Kind.OPERATION_DEFINITION) continue;
        if (args.operationName && d.name?.value !== args.operationName) continue;
        const root = d.operation === 'query' ? args.schema.getQueryType() : d.operation === 'mutation' ? args.schema.getMutationType() : args.schema.getSubscriptionType();
        if (!root) continue;
        const cost = pageCost(args.schema, root, d.selectionSet, fragments, variables, new Set());
        if (cost > LIMITS.maxPageCost) {
          setResultAndStopExecution({
            errors: [
              createGraphQLError(`This request could return ${cost.toLocaleString('en-US')} items; at most ${LIMITS.maxPageCost.toLocaleString('en-US')} are allowed. Ask for smaller pages.`, {
                extensions: { code: QUERY_TOO_COMPLEX, http: { status: 400 } },
              }),
            ],
          });
          return;
        }
      }
    },
  };
}

/**
 * Text no field accepts (NUL, unpaired surrogates) and over-deep values, in the variables or the
 * document's own string literals, are refused with BAD_USER_INPUT before any resolver runs (see
 * api/http/input-guard.ts, the same rule as for REST bodies).
 */
export function useInputGuard(): Plugin {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      let problem = findInputProblem(args.variableValues ?? {});
      if (!problem) {
        visit(args.document, {
          StringValue(node) {
            problem = findInputProblem(node.value);
            return problem ? BREAK : undefined;
          },
        });
      }
      if (problem) {
        setResultAndStopExecution({
          errors: [createGraphQLError(problem.message, { extensions: { code: 'BAD_USER_INPUT', ...(problem.path ? { field: problem.path } : {}), http: { status: 400 } } })],
        });
      }
    },
  };
}
