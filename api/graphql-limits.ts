// Limits on what one GraphQL request may ask for, checked before any resolver runs:
// - graphql-armor: depth, aliases, tokens, directives and a per-field cost;
// - list arguments (in the document or its variables, at any depth of an input): at most
//   LIMITS.maxListItems items each — `nodes(ids:)` with 20,000 ids was an internal error (the
//   database's parameter limit) after seconds of work;
// - a page cost: the number of list items a request could return, multiplying the page sizes of
//   nested connections (`first`/`last`, or the connection's default) and the ids of `nodes(ids:)`
//   (LIMITS.loadByIdCost each), plus the items of its list arguments — 1,000 aliases of `queryHistory { customers(first: 100) }`
//   would be millions;
// - no batched requests (Yoga's default), so one HTTP request is one operation.
// A refused request gets HTTP 400 and `extensions.code` QUERY_TOO_COMPLEX within milliseconds.
import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import { findInputProblem, type InputProblem } from './http/input-guard.js';
import type { Plugin } from 'graphql-yoga';
import { createGraphQLError } from 'graphql-yoga';
import {
  getNamedType,
  getNullableType,
  isCompositeType,
  isInterfaceType,
  isListType,
  isObjectType,
  Kind,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLError,
  type GraphQLSchema,
  type OperationDefinitionNode,
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
  /**
   * Items of one list argument (the segment engine's longest list, a condition's values, is 200;
   * 15 aliases × 200 ids stay far below the database's 32,767 parameters of one statement).
   */
  maxListItems: 200,
  /**
   * Items one element of a list chosen by a list argument (`nodes(ids:)`) counts for: each id is a
   * database read of its own (a page item is one row of one read), so a request may load about 400
   * nodes by id (3,000 presets by id took 5 s of database time).
   */
  loadByIdCost: 50,
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

/** The longest list an argument value holds at its top (a variable's value or a literal list), else null. */
function listLength(node: ValueNode, variables: Record<string, unknown>): number | null {
  if (node.kind === Kind.LIST) return node.values.length;
  if (node.kind === Kind.VARIABLE) {
    const v = variables[node.name.value];
    return Array.isArray(v) ? v.length : null;
  }
  return null;
}

/** The most list items the selection could produce (nested lists multiply). */
function pageCost(
  schema: GraphQLSchema,
  type: GraphQLCompositeType,
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
      if (isCompositeType(onType)) total += pageCost(schema, onType, fragment.selectionSet, fragments, variables, new Set([...seen, fragment.name.value]));
      continue;
    }
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      const onType = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : type;
      if (isCompositeType(onType)) total += pageCost(schema, onType, selection.selectionSet, fragments, variables, seen);
      continue;
    }
    const field = isObjectType(type) || isInterfaceType(type) ? type.getFields()[selection.name.value] : undefined;
    if (!field || !selection.selectionSet) continue;
    const named = getNamedType(field.type);
    if (!isCompositeType(named)) continue;
    let size = 1;
    if (named.name.endsWith('Connection')) size = pageSize(selection, variables) ?? LIMITS.defaultPageSize;
    else if (isListType(getNullableType(field.type))) {
      // A list chosen by a list argument (`nodes(ids:)`) has one item per element, each a read of its own.
      for (const arg of selection.arguments ?? []) size = Math.max(size, (listLength(arg.value, variables) ?? 0) * LIMITS.loadByIdCost);
    }
    const inner = pageCost(schema, named, selection.selectionSet, fragments, variables, seen);
    total += size * Math.max(1, inner);
  }
  return total;
}

interface ListItems {
  /** Items of every list in the value. */
  total: number;
  /** The longest single list. */
  longest: number;
}

/** Lists inside a JSON value (a variable): iterative, so no depth can overflow the stack. */
function countJsonLists(value: unknown, into: ListItems): void {
  const stack = [value];
  while (stack.length) {
    const v = stack.pop();
    if (!v || typeof v !== 'object') continue;
    const children = Array.isArray(v) ? v : Object.values(v);
    if (Array.isArray(v)) {
      into.total += v.length;
      into.longest = Math.max(into.longest, v.length);
    }
    for (const child of children) if (child && typeof child === 'object') stack.push(child);
  }
}

// What the checks below learn from a document alone, kept per parsed document: Yoga's parser cache
// hands the same DocumentNode to every request with the same text, so a client's repeated operation
// is walked once, not on every request.
const documentLists = new WeakMap<DocumentNode, ListItems>();
const documentStringProblems = new WeakMap<DocumentNode, InputProblem | null>();
/** Page cost of an operation that declares no variables (then it depends on the document alone). */
const operationCosts = new WeakMap<OperationDefinitionNode, number>();

/** Every list written in the document and in the variables' values. */
function listItemsOf(document: DocumentNode, variables: Record<string, unknown>): ListItems {
  let written = documentLists.get(document);
  if (!written) {
    const found: ListItems = { total: 0, longest: 0 };
    visit(document, {
      ListValue(node) {
        found.total += node.values.length;
        found.longest = Math.max(found.longest, node.values.length);
      },
    });
    documentLists.set(document, (written = found));
  }
  const items: ListItems = { ...written };
  countJsonLists(variables, items);
  return items;
}

/** The first string literal of the document that no field accepts, or null. */
function stringProblemOf(document: DocumentNode): InputProblem | null {
  if (documentStringProblems.has(document)) return documentStringProblems.get(document)!;
  let problem: InputProblem | null = null;
  visit(document, {
    StringValue(node) {
      problem = findInputProblem(node.value);
      return problem ? BREAK : undefined;
    },
  });
  documentStringProblems.set(document, problem);
  return problem;
}

const tooComplex = (message: string) => createGraphQLError(message, { extensions: { code: QUERY_TOO_COMPLEX, http: { status: 400 } } });
const count = (n: number) => n.toLocaleString('en-US');

/**
 * Refuses, before execution, a request with a list argument longer than LIMITS.maxListItems, or whose
 * nested pages (and list arguments) could come to more than LIMITS.maxPageCost items.
 */
export function usePageCostLimit(): Plugin {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const variables = (args.variableValues ?? {}) as Record<string, unknown>;
      const lists = listItemsOf(args.document, variables);
      if (lists.longest > LIMITS.maxListItems) {
        setResultAndStopExecution({ errors: [tooComplex(`A list argument has ${count(lists.longest)} items; at most ${count(LIMITS.maxListItems)} are allowed.`)] });
        return;
      }
      const fragments: Record<string, FragmentDefinitionNode> = {};
      for (const d of args.document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments[d.name.value] = d;
      for (const d of args.document.definitions) {
        if (d.kind !== Kind.OPERATION_DEFINITION) continue;
        if (args.operationName && d.name?.value !== args.operationName) continue;
        const root = d.operation === 'query' ? args.schema.getQueryType() : d.operation === 'mutation' ? args.schema.getMutationType() : args.schema.getSubscriptionType();
        if (!root) continue;
        let own = operationCosts.get(d);
        if (own === undefined) {
          own = pageCost(args.schema, root, d.selectionSet, fragments, variables, new Set());
          if (!d.variableDefinitions?.length) operationCosts.set(d, own);
        }
        const cost = own + lists.total;
        if (cost > LIMITS.maxPageCost) {
          setResultAndStopExecution({
            errors: [tooComplex(`This request could return ${count(cost)} items; at most ${count(LIMITS.maxPageCost)} are allowed. Ask for smaller pages.`)],
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
      const problem = findInputProblem(args.variableValues ?? {}) ?? stringProblemOf(args.document);
      if (problem) {
        setResultAndStopExecution({
          errors: [createGraphQLError(problem.message, { extensions: { code: 'BAD_USER_INPUT', ...(problem.path ? { field: problem.path } : {}), http: { status: 400 } } })],
        });
      }
    },
  };
}
