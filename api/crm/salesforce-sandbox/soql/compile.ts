/**
 * SOQL → an executable plan, checked against the org's schema the way Salesforce checks a query.
 *
 * Parsing is @jetstreamapp/soql-parser-js (a maintained SOQL grammar); this module resolves what it
 * returns: object and field names (case-insensitive, relationship paths such as `Account.Name` or
 * `Opportunity.IsWon`), literal types against field types, date literals, semi-/anti-joins and their
 * restrictions, child-relationship subqueries, COUNT(), aggregates with GROUP BY / HAVING, ORDER BY,
 * LIMIT and OFFSET. What Salesforce rejects, the sandbox rejects with Salesforce's error code
 * (MALFORMED_QUERY, INVALID_FIELD, INVALID_TYPE, INVALID_QUERY_FILTER_OPERATOR,
 * NUMBER_OUTSIDE_VALID_RANGE) and a located message. Features the product never needs and the sandbox
 * does not implement (TYPEOF, FIELDS(), date functions, toLabel, ...) are rejected with a message that
 * says so.
 */
import {
  parseQuery,
  type Condition,
  type FieldType,
  type HavingClause,
  type LiteralType,
  type OrderByClause,
  type Query,
  type Subquery,
  type ValueQueryCondition,
  type WhereClause,
} from '@jetstreamapp/soql-parser-js';
import { canonicalId } from '../../salesforce/model/ids.js';
import { apiError, queryError, type SalesforceApiError } from '../errors.js';
import { isNumberType, isTextType, type ChildRelationship, type FieldDef, type ObjectDef, type Schema } from '../schema.js';
import { dateLiteralRange, dayStart, isDateNLiteral, ymdString, type DateContext } from '../../salesforce/model/date-literals.js';

export interface FieldPath {
  /** as written */
  text: string;
  /** the reference fields followed (Contact → AccountId for `Account.Name`) */
  steps: FieldDef[];
  leaf: FieldDef;
  /** canonical relationship names, then the leaf's name (for rendering nested records) */
  keys: string[];
}

export type Scalar = string | number | boolean;
/** A comparison operand: null, a value (dates "YYYY-MM-DD", datetimes epoch ms), or a date literal's range. */
export type Operand = { kind: 'null' } | { kind: 'value'; value: Scalar } | { kind: 'range'; from: Scalar; to: Scalar };

export type CmpOp = '=' | '!=' | '<' | '<=' | '>' | '>=' | 'IN' | 'NOT IN';

export type Predicate =
  | { kind: 'and'; items: Predicate[] }
  | { kind: 'or'; items: Predicate[] }
  | { kind: 'not'; item: Predicate }
  | { kind: 'cmp'; path: FieldPath; op: CmpOp; operands: Operand[] }
  | { kind: 'like'; path: FieldPath; pattern: string }
  | { kind: 'semi'; path: FieldPath; negate: boolean; query: CompiledQuery };

export type AggregateFn = 'COUNT' | 'COUNT_DISTINCT' | 'SUM' | 'AVG' | 'MIN' | 'MAX';

export interface SelectField {
  kind: 'field';
  path: FieldPath;
  /** an aggregate query's name for a grouped field (its key in AggregateResult) */
  alias?: string;
}
export interface SelectSubquery {
  kind: 'subquery';
  relationship: ChildRelationship;
  query: CompiledQuery;
}
export interface SelectAggregate {
  kind: 'aggregate';
  fn: AggregateFn;
  /** null for COUNT(*)-style COUNT() inside an aggregate query */
  path: FieldPath | null;
  alias: string;
}
export type SelectItem = SelectField | SelectSubquery | SelectAggregate;

/** A value an aggregate query's HAVING or ORDER BY refers to. */
export type AggregateTarget = { kind: 'group'; path: FieldPath } | { kind: 'aggregate'; fn: AggregateFn; path: FieldPath | null };

export type HavingPredicate =
  | { kind: 'and'; items: HavingPredicate[] }
  | { kind: 'or'; items: HavingPredicate[] }
  | { kind: 'not'; item: HavingPredicate }
  | { kind: 'cmp'; target: AggregateTarget; type: FieldDef['type']; op: CmpOp; operands: Operand[] };

export interface OrderItem {
  target: AggregateTarget;
  descending: boolean;
  nullsLast: boolean;
}

export interface CompiledQuery {
  object: ObjectDef;
  /** SELECT COUNT() — only the number of matches is returned */
  countOnly: boolean;
  /** an aggregate query (GROUP BY or aggregate functions): AggregateResult rows, no query locator */
  aggregate: boolean;
  select: SelectItem[];
  where: Predicate | null;
  groupBy: FieldPath[];
  having: HavingPredicate | null;
  orderBy: OrderItem[];
  limit: number | null;
  offset: number | null;
}

export interface CompileContext {
  schema: Schema;
  dates: DateContext;
}

/** Salesforce's SOQL length limit. */
export const MAX_QUERY_LENGTH = 100_000;
export const MAX_OFFSET = 2000;

const AGGREGATES = new Set<AggregateFn>(['COUNT', 'COUNT_DISTINCT', 'SUM', 'AVG', 'MIN', 'MAX']);
const SOAP_TYPE: Record<FieldDef['type'], string> = {
  id: 'id', reference: 'reference', string: 'string', email: 'string', phone: 'string', url: 'string', picklist: 'string',
  textarea: 'string', boolean: 'boolean', int: 'int', double: 'double', currency: 'currency', percent: 'double',
  date: 'date', datetime: 'dateTime', address: 'address',
};

/** Parses and compiles a SOQL query, or throws the SalesforceApiError Salesforce would answer. */
export function compileSoql(soql: string, ctx: CompileContext): CompiledQuery {
  if (soql.length > MAX_QUERY_LENGTH) {
    throw apiError(400, 'MALFORMED_QUERY', `SOQL statements cannot be longer than ${MAX_QUERY_LENGTH.toLocaleString('en-US')} characters.`);
  }
  let parsed: Query;
  try {
    parsed = parseQuery(soql);
  } catch (e) {
    throw syntaxError(soql, (e as Error).message);
  }
  const compiler = new Compiler(soql, ctx);
  const compiled = compiler.query(parsed, { topLevel: true });
  // The parser drops a NOT from a chain of three NOTs each opening the other's operand
  // ("NOT NOT (NOT a = 1)" comes back as "NOT (NOT a = 1)"). Refuse such a query rather than answer
  // the opposite question: every logical NOT of the text must have reached the compiled conditions.
  if (compiler.notTokens !== countLogicalNots(soql)) throw threeNots(soql);
  return compiled;
}

function threeNots(soql: string): SalesforceApiError {
  return queryError('MALFORMED_QUERY', soql, soql.toUpperCase().indexOf('NOT'), 'Three NOTs nested in each other are not supported by the Salesforce sandbox; simplify the double negation.');
}

/**
 * How many logical NOTs a query's text has: the keyword NOT outside string literals, except in the
 * NOT IN operator. (A guard against the parser's one known loss, not a parse: the parser has read the
 * query already.)
 */
export function countLogicalNots(soql: string): number {
  const words: string[] = [];
  let word = '';
  const flush = () => {
    if (word) words.push(word.toUpperCase());
    word = '';
  };
  for (let i = 0; i < soql.length; i++) {
    const ch = soql[i];
    if (ch === "'") {
      flush();
      words.push("'");
      for (i++; i < soql.length && soql[i] !== "'"; i++) if (soql[i] === '\\') i++;
      continue;
    }
    const isWordChar = (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch === '_';
    if (isWordChar) word += ch;
    else {
      flush();
      if (ch.trim()) words.push(ch);
    }
  }
  flush();
  let n = 0;
  for (let k = 0; k < words.length; k++) if (words[k] === 'NOT' && words[k + 1] !== 'IN') n++;
  return n;
}

/** Salesforce's "unexpected token" error, pointed at the token the parser stopped on. */
function syntaxError(soql: string, parserMessage: string): SalesforceApiError {
  const marker = "but found --> '";
  const start = parserMessage.indexOf(marker);
  const end = start < 0 ? -1 : parserMessage.indexOf("' <--", start + marker.length);
  const found = start < 0 || end < 0 ? '' : parserMessage.slice(start + marker.length, end);
  // The parser reports the token, not its position: point at its last occurrence, or at the end.
  const at = found ? soql.lastIndexOf(found) : soql.trimEnd().length;
  return queryError('MALFORMED_QUERY', soql, at < 0 ? soql.length : at, `unexpected token: ${found ? `'${found}'` : '<EOF>'}`);
}

interface QueryScope {
  topLevel: boolean;
  /** inside a semi-join / anti-join subquery */
  semiJoin?: boolean;
  /** inside a parent-to-child relationship subquery */
  childOf?: ObjectDef;
}

type CondNode = Condition | ValueQueryCondition;
type Token = { t: '(' } | { t: ')' } | { t: 'AND' } | { t: 'OR' } | { t: 'NOT' } | { t: 'cond'; c: CondNode };

class Compiler {
  /** logical NOTs that reached the compiled conditions (see countLogicalNots) */
  notTokens = 0;

  constructor(
    private readonly soql: string,
    private readonly ctx: CompileContext,
  ) {}

  private get schema() {
    return this.ctx.schema;
  }

  /** Where a name occurs in the query (for error positions). */
  private at(text: string, from = 0): number {
    const i = this.soql.toLowerCase().indexOf(text.toLowerCase(), from);
    return i < 0 ? 0 : i;
  }

  /**
   * The parser checks that parentheses balance; when it drops a NOT from a chain of three it can drop
   * that NOT's parenthesis too (see compileSoql).
   */
  private checkBalanced(tokens: Token[]): void {
    if (tokens.filter((t) => t.t === '(').length !== tokens.filter((t) => t.t === ')').length) throw threeNots(this.soql);
  }

  private malformed(text: string, reason: string): SalesforceApiError {
    return queryError('MALFORMED_QUERY', this.soql, this.at(text), reason);
  }

  private unsupported(text: string, what: string): SalesforceApiError {
    return queryError('MALFORMED_QUERY', this.soql, this.at(text), `${what} is not supported by the Salesforce sandbox.`);
  }

  query(q: Query | Subquery, scope: QueryScope, object?: ObjectDef): CompiledQuery {
    const obj = object ?? this.resolveObject((q as Query).sObject ?? '');
    const alias = q.sObjectAlias;
    const fields = q.fields ?? [];
    const countOnly = fields.length === 1 && fields[0].type === 'FieldFunctionExpression' && fields[0].functionName.toUpperCase() === 'COUNT' && fields[0].parameters.length === 0;

    const select: SelectItem[] = [];
    const seen = new Set<string>();
    let exprN = 0;
    if (!countOnly) {
      if (fields.length === 0) throw this.malformed('FROM', "unexpected token: 'FROM'");
      for (const f of fields) {
        const item = this.selectItem(f, obj, alias, scope, () => `expr${exprN++}`);
        const key = item.kind === 'field' ? item.path.keys.join('.').toLowerCase() : item.kind === 'subquery' ? item.relationship.relationshipName.toLowerCase() : `agg:${item.alias.toLowerCase()}`;
        if (seen.has(key)) throw this.malformed(item.kind === 'field' ? item.path.text : key, `duplicate field selected: ${item.kind === 'field' ? item.path.keys.join('.') : key}`);
        seen.add(key);
        select.push(item);
      }
    } else if (q.groupBy) {
      throw this.malformed('GROUP BY', 'COUNT() and GROUP BY may not be used together; use COUNT(fieldName) to count grouped rows');
    }

    const semiJoins = { count: 0 };
    const where = q.where ? this.where(q.where, obj, alias, scope, semiJoins) : null;

    const groupBy: FieldPath[] = [];
    const groupClauses = q.groupBy ? (Array.isArray(q.groupBy) ? q.groupBy : [q.groupBy]) : [];
    for (const g of groupClauses) {
      if ('fn' in g) throw this.unsupported(g.fn.rawValue ?? 'GROUP BY', `GROUP BY ${g.fn.functionName ?? 'a function'}()`);
      const path = this.path(obj, g.field, alias);
      if (!path.leaf.groupable) throw queryError('MALFORMED_QUERY', this.soql, this.at(g.field), `field '${path.leaf.name}' can not be grouped in a query call`);
      groupBy.push(path);
    }
    if ((q as Query).groupBy && !Array.isArray(q.groupBy) && 'type' in (q.groupBy as object)) {
      throw this.unsupported('GROUP BY', 'GROUP BY ROLLUP / CUBE');
    }

    const aggregate = !countOnly && (groupBy.length > 0 || select.some((s) => s.kind === 'aggregate'));
    if (aggregate) {
      for (const s of select) {
        if (s.kind === 'subquery') throw this.malformed(s.relationship.relationshipName, 'Aggregate queries do not support relationship subqueries');
        if (s.kind === 'field' && !groupBy.some((g) => samePath(g, s.path))) {
          throw this.malformed(s.path.text, `Field must be grouped or aggregated: ${s.path.leaf.name}`);
        }
      }
    }
    if (q.having && !aggregate) throw this.malformed('HAVING', 'HAVING can only be used with GROUP BY or aggregate functions');
    const having = q.having ? this.having(q.having, obj, alias, groupBy) : null;

    const orderBy: OrderItem[] = [];
    const orderClauses = q.orderBy ? (Array.isArray(q.orderBy) ? q.orderBy : [q.orderBy]) : [];
    if (countOnly && orderClauses.length) throw this.malformed('ORDER BY', 'ORDER BY is not allowed with COUNT()');
    for (const o of orderClauses) orderBy.push(this.orderItem(o, obj, alias, aggregate, groupBy));

    if (scope.semiJoin) {
      if (select.length !== 1 || select[0].kind !== 'field' || select[0].path.steps.length > 0) {
        throw this.malformed('SELECT', 'The subquery of a semi join must select exactly one field of the queried object (no relationship paths)');
      }
      if (countOnly || aggregate || orderBy.length || q.limit !== undefined || q.offset !== undefined) {
        throw this.malformed('SELECT', 'Semi join and anti join subqueries cannot use COUNT, GROUP BY, ORDER BY, LIMIT or OFFSET');
      }
    }

    const limit = q.limit ?? null;
    if (limit !== null && (!Number.isInteger(limit) || limit < 0)) throw this.malformed('LIMIT', `unexpected token: '${String(limit)}'`);
    const offset = q.offset ?? null;
    if (offset !== null) {
      if (!Number.isInteger(offset) || offset < 0) throw this.malformed('OFFSET', `unexpected token: '${String(offset)}'`);
      if (offset > MAX_OFFSET) throw apiError(400, 'NUMBER_OUTSIDE_VALID_RANGE', `Maximum SOQL offset allowed is ${MAX_OFFSET}`);
      if (scope.childOf) throw this.malformed('OFFSET', 'OFFSET is not allowed in a relationship subquery');
    }
    if ((q as Query).withDataCategory) throw this.unsupported('WITH DATA CATEGORY', 'WITH DATA CATEGORY');
    if (q.for || q.update) {
      // FOR VIEW / FOR REFERENCE / UPDATE TRACKING change nothing the sandbox returns.
    }

    return { object: obj, countOnly, aggregate, select, where, groupBy, having, orderBy, limit, offset };
  }

  private resolveObject(name: string): ObjectDef {
    const obj = this.schema.object(name);
    if (!obj) {
      throw queryError(
        'INVALID_TYPE',
        this.soql,
        this.at(name, this.at('FROM')),
        `sObject type '${name}' is not supported. If you are attempting to use a custom object, be sure to append the '__c' after the entity name. Please reference your WSDL or the describe call for the appropriate names.`,
      );
    }
    return obj;
  }

  /** `A.B.Field` on `obj` (an alias or the object's own name may prefix it). */
  path(obj: ObjectDef, text: string, alias?: string): FieldPath {
    let segments = text.split('.');
    if (segments.length > 1 && alias && segments[0].toLowerCase() === alias.toLowerCase()) segments = segments.slice(1);
    else if (segments.length > 1 && segments[0].toLowerCase() === obj.name.toLowerCase() && !this.schema.relationship(obj, segments[0])) {
      segments = segments.slice(1);
    }
    if (segments.length > 6) throw this.malformed(text, 'A relationship path can span at most 5 levels');
    const steps: FieldDef[] = [];
    const keys: string[] = [];
    let current = obj;
    for (const seg of segments.slice(0, -1)) {
      const ref = this.schema.relationship(current, seg);
      if (!ref) {
        throw queryError(
          'INVALID_FIELD',
          this.soql,
          this.at(text),
          `Didn't understand relationship '${seg}' in field path. If you are attempting to use a custom relationship, be sure to append the '__r' after the custom relationship name. Please reference your WSDL or the describe call for the appropriate names.`,
        );
      }
      steps.push(ref);
      keys.push(ref.relationshipName!);
      current = this.schema.object(ref.referenceTo[0])!;
    }
    const last = segments[segments.length - 1];
    const leaf = this.schema.field(current, last);
    if (!leaf) {
      throw queryError(
        'INVALID_FIELD',
        this.soql,
        this.at(text),
        `No such column '${last}' on entity '${current.name}'. If you are attempting to use a custom field, be sure to append the '__c' after the custom field name. Please reference your WSDL or the describe call for the appropriate names.`,
      );
    }
    keys.push(leaf.name);
    return { text, steps, leaf, keys };
  }

  private selectItem(f: FieldType, obj: ObjectDef, alias: string | undefined, scope: QueryScope, nextAlias: () => string): SelectItem {
    switch (f.type) {
      case 'Field':
        return { kind: 'field', path: this.path(obj, f.field, alias), ...(f.alias ? { alias: f.alias } : {}) };
      case 'FieldRelationship':
        return { kind: 'field', path: this.path(obj, [...f.relationships, f.field].join('.'), alias), ...('alias' in f && f.alias ? { alias: f.alias as string } : {}) };
      case 'FieldSubquery': {
        if (!scope.topLevel || scope.semiJoin) throw this.malformed(f.subquery.relationshipName, 'Nesting of relationship subqueries is not supported');
        const rel = this.schema.child(obj, f.subquery.relationshipName);
        if (!rel) {
          throw queryError(
            'INVALID_TYPE',
            this.soql,
            this.at(f.subquery.relationshipName),
            `Didn't understand relationship '${f.subquery.relationshipName}' in FROM part of query call. If you are attempting to use a custom relationship, be sure to append the '__r' after the custom relationship name. Please reference your WSDL or the describe call for the appropriate names.`,
          );
        }
        const child = this.schema.object(rel.childSObject)!;
        const query = this.query(f.subquery, { topLevel: false, childOf: obj }, child);
        if (query.countOnly || query.aggregate) throw this.malformed(f.subquery.relationshipName, 'Aggregate functions are not allowed in relationship subqueries');
        return { kind: 'subquery', relationship: rel, query };
      }
      case 'FieldFunctionExpression': {
        const fn = f.functionName.toUpperCase();
        if (!AGGREGATES.has(fn as AggregateFn)) throw this.unsupported(f.rawValue ?? fn, `${fn}()`);
        const params = f.parameters;
        if (fn === 'COUNT' && params.length === 0) throw this.malformed('COUNT()', 'COUNT() must be the only element in the SELECT list');
        if (params.length !== 1 || typeof params[0] !== 'string') throw this.malformed(f.rawValue ?? fn, `${fn}() takes exactly one field`);
        const path = this.path(obj, params[0], alias);
        this.checkAggregatable(fn as AggregateFn, path);
        return { kind: 'aggregate', fn: fn as AggregateFn, path, alias: f.alias ?? nextAlias() };
      }
      default:
        throw this.unsupported(f.type === 'FieldTypeof' ? 'TYPEOF' : 'SELECT', f.type === 'FieldTypeof' ? 'TYPEOF' : 'This select item');
    }
  }

  private checkAggregatable(fn: AggregateFn, path: FieldPath): void {
    const t = path.leaf.type;
    const ok = fn === 'SUM' || fn === 'AVG' ? isNumberType(t) : fn === 'MIN' || fn === 'MAX' ? t !== 'boolean' && t !== 'address' && t !== 'textarea' : t !== 'address' && t !== 'textarea';
    if (!ok) throw this.malformed(path.text, `field ${path.leaf.name} does not support aggregate operator ${fn}`);
  }

  // --- WHERE ----------------------------------------------------------------------------------------

  private where(w: WhereClause, obj: ObjectDef, alias: string | undefined, scope: QueryScope, semiJoins: { count: number }): Predicate {
    const tokens: Token[] = [];
    flatten(w, tokens);
    this.notTokens += tokens.filter((t) => t.t === 'NOT').length;
    this.checkBalanced(tokens);
    let i = 0;
    const peek = () => tokens[i];
    const expr = (): Predicate => {
      const first = term();
      const items = [first];
      let op: 'AND' | 'OR' | null = null;
      while (peek() && (peek().t === 'AND' || peek().t === 'OR')) {
        const t = peek().t as 'AND' | 'OR';
        if (op && op !== t) {
          throw this.malformed(t, `unexpected token: '${t}'. Use parentheses when a condition mixes AND and OR`);
        }
        op = t;
        i++;
        items.push(term());
      }
      if (!op) return first;
      if (op === 'OR' && items.some(containsSemi)) throw this.malformed(' OR ', "Semi join sub-selects are not allowed with the 'OR' operator");
      return op === 'AND' ? { kind: 'and', items } : { kind: 'or', items };
    };
    const term = (): Predicate => {
      const tok = tokens[i++];
      if (!tok) throw this.malformed('WHERE', 'unexpected token: <EOF>');
      if (tok.t === 'NOT') {
        const item = term();
        if (containsSemi(item)) throw this.malformed('NOT', "Semi join sub-selects are not allowed with the 'NOT' operator; use NOT IN");
        return { kind: 'not', item };
      }
      if (tok.t === '(') {
        const inner = expr();
        if (tokens[i++]?.t !== ')') throw this.malformed('(', "unexpected token: '('");
        return inner;
      }
      if (tok.t === 'cond') return this.condition(tok.c, obj, alias, scope, semiJoins);
      throw this.malformed(tok.t, `unexpected token: '${tok.t}'`);
    };
    const result = expr();
    if (i !== tokens.length) throw this.malformed(')', "unexpected token: ')'");
    return result;
  }

  private condition(c: CondNode, obj: ObjectDef, alias: string | undefined, scope: QueryScope, semiJoins: { count: number }): Predicate {
    if ('fn' in c) {
      const name = c.fn.functionName ?? 'function';
      if (AGGREGATES.has(name.toUpperCase() as AggregateFn)) throw this.malformed(c.fn.rawValue ?? name, 'Aggregate functions are not allowed in WHERE; use HAVING');
      throw this.unsupported(c.fn.rawValue ?? name, `${name}() in WHERE`);
    }
    if (!('field' in c)) throw this.malformed('WHERE', "unexpected token: '('");
    const path = this.path(obj, c.field, alias);
    const f = path.leaf;
    if (!f.filterable) throw queryError('INVALID_FIELD', this.soql, this.at(c.field), `field '${f.name}' can not be filtered in a query call`);
    const op = c.operator;

    if ('valueQuery' in c && c.valueQuery) {
      if (op !== 'IN' && op !== 'NOT IN') throw this.malformed(c.field, `unexpected token: '${op}'`);
      return this.semiJoin(path, op === 'NOT IN', c.valueQuery, obj, scope, semiJoins);
    }
    const cond = c as { value: string | string[]; literalType?: LiteralType | LiteralType[]; dateLiteralVariable?: number | number[] };

    if (op === 'INCLUDES' || op === 'EXCLUDES') throw this.invalidOperator(c.field, f, op);
    if (op === 'LIKE') {
      if (!isTextType(f.type) || f.type === 'id' || f.type === 'reference') throw this.invalidOperator(c.field, f, op);
      const lt = single(cond.literalType);
      if (lt !== 'STRING' || Array.isArray(cond.value)) throw this.typeMismatch(c.field, f);
      return { kind: 'like', path, pattern: unquote(cond.value as string) };
    }
    if (op === 'IN' || op === 'NOT IN') {
      const values = Array.isArray(cond.value) ? cond.value : [cond.value];
      const types = Array.isArray(cond.literalType) ? cond.literalType : values.map(() => cond.literalType as LiteralType);
      const ns = Array.isArray(cond.dateLiteralVariable) ? cond.dateLiteralVariable : values.map(() => cond.dateLiteralVariable as number | undefined);
      const operands = values.map((v, k) => this.operand(c.field, f, types[k], v, ns[k]));
      if (operands.some((o) => o.kind === 'null')) throw this.malformed(c.field, 'null is not allowed in an IN list');
      return { kind: 'cmp', path, op, operands };
    }
    if (Array.isArray(cond.value)) throw this.malformed(c.field, `unexpected token: '('`);
    const operand = this.operand(c.field, f, single(cond.literalType), cond.value, single(cond.dateLiteralVariable));
    if (operand.kind === 'null' && op !== '=' && op !== '!=') throw this.invalidOperator(c.field, f, op);
    if (f.type === 'boolean' && op !== '=' && op !== '!=') throw this.invalidOperator(c.field, f, op);
    return { kind: 'cmp', path, op: op as CmpOp, operands: [operand] };
  }

  private semiJoin(path: FieldPath, negate: boolean, sub: Query, obj: ObjectDef, scope: QueryScope, semiJoins: { count: number }): Predicate {
    const word = negate ? 'anti join' : 'semi join';
    if (scope.semiJoin || scope.childOf) throw this.malformed(sub.sObject ?? 'SELECT', `Nesting of ${word} sub-selects is not supported`);
    if (path.steps.length > 0 || (path.leaf.type !== 'id' && path.leaf.type !== 'reference')) {
      throw this.malformed(path.text, `The left operand of a ${word} must be an ID or reference field of ${obj.name}`);
    }
    if (++semiJoins.count > 2) throw this.malformed(sub.sObject ?? 'SELECT', 'No more than two semi join or anti join sub-selects are allowed in a WHERE clause');
    const subObj = this.resolveObject(sub.sObject ?? '');
    if (subObj.name === obj.name) throw this.malformed(sub.sObject ?? 'SELECT', 'The inner and outer selects should not be on the same object type');
    const query = this.query(sub, { topLevel: false, semiJoin: true }, subObj);
    const selected = (query.select[0] as SelectField).path.leaf;
    if (selected.type !== 'id' && selected.type !== 'reference') {
      throw this.malformed(selected.name, `The selected field '${selected.name}' in the subquery must be an ID or reference field`);
    }
    const target = (f: FieldDef, owner: ObjectDef) => (f.type === 'id' ? owner.name : f.referenceTo[0]);
    if (target(selected, subObj) !== target(path.leaf, obj)) {
      throw this.malformed(
        selected.name,
        `The selected field '${selected.name}' in the subquery and the left operand field in the where expression in the outer query '${path.leaf.name}' should point to the same object type`,
      );
    }
    return { kind: 'semi', path, negate, query };
  }

  private invalidOperator(text: string, f: FieldDef, op: string): SalesforceApiError {
    return queryError('INVALID_QUERY_FILTER_OPERATOR', this.soql, this.at(text), `invalid operator on ${SOAP_TYPE[f.type]} field: ${f.name} ${op}`);
  }

  private typeMismatch(text: string, f: FieldDef): SalesforceApiError {
    const t = SOAP_TYPE[f.type];
    const quoted = isTextType(f.type) ? 'should be enclosed in quotes' : 'should not be enclosed in quotes';
    return queryError('INVALID_QUERY_FILTER_OPERATOR', this.soql, this.at(text), `value of filter criterion for field '${f.name}' must be of type ${t === 'reference' || t === 'id' ? 'string' : t} and ${quoted}`);
  }

  /** A literal as a value of field `f` (or the error Salesforce gives for it). */
  private operand(text: string, f: FieldDef, lt: LiteralType | undefined, raw: string, n: number | undefined): Operand {
    const t = f.type;
    switch (lt) {
      case 'NULL':
        return { kind: 'null' };
      case 'STRING': {
        if (!isTextType(t)) throw this.typeMismatch(text, f);
        const s = unquote(raw);
        if (t === 'id' || t === 'reference') {
          const id = canonicalId(s);
          if (!id) throw queryError('INVALID_QUERY_FILTER_OPERATOR', this.soql, this.at(raw), `invalid ID field: ${s}`);
          return { kind: 'value', value: id };
        }
        return { kind: 'value', value: s };
      }
      case 'INTEGER':
      case 'DECIMAL':
        if (!isNumberType(t)) throw this.typeMismatch(text, f);
        return { kind: 'value', value: Number(raw) };
      case 'BOOLEAN':
        if (t !== 'boolean') throw this.typeMismatch(text, f);
        return { kind: 'value', value: raw.toUpperCase() === 'TRUE' };
      case 'DATE':
        if (t !== 'date') throw this.typeMismatch(text, f);
        return { kind: 'value', value: raw };
      case 'DATETIME': {
        if (t !== 'datetime') throw this.typeMismatch(text, f);
        const ms = Date.parse(raw);
        if (!Number.isFinite(ms)) throw this.malformed(raw, `value of filter criterion for field '${f.name}' must be a valid dateTime`);
        return { kind: 'value', value: ms };
      }
      case 'DATE_LITERAL':
      case 'DATE_N_LITERAL': {
        if (t !== 'date' && t !== 'datetime') throw this.typeMismatch(text, f);
        const name = raw.split(':')[0].toUpperCase();
        const needsN = isDateNLiteral(name);
        const k = lt === 'DATE_N_LITERAL' ? Number(n ?? raw.split(':')[1]) : null;
        if (needsN !== (k !== null) || (k !== null && (!Number.isInteger(k) || k < 0))) throw this.malformed(raw, `unexpected token: '${raw}'`);
        const range = dateLiteralRange(name, k, this.ctx.dates);
        if (!range) throw this.malformed(raw, `unexpected token: '${raw}'`);
        if (t === 'date') return { kind: 'range', from: ymdString(range.from), to: ymdString(range.to) };
        return { kind: 'range', from: dayStart(range.from, this.ctx.dates.timeZone), to: dayStart(range.to, this.ctx.dates.timeZone) };
      }
      case 'INTEGER_WITH_CURRENCY_PREFIX':
      case 'DECIMAL_WITH_CURRENCY_PREFIX':
        throw this.malformed(raw, 'Currency ISO codes in filters are only allowed in orgs with multiple currencies enabled');
      case 'APEX_BIND_VARIABLE':
        throw this.malformed(raw, `unexpected token: '${raw}'`);
      default:
        throw this.malformed(raw, `unexpected token: '${raw}'`);
    }
  }

  // --- HAVING and ORDER BY --------------------------------------------------------------------------

  private aggregateTarget(fnName: string, params: unknown[], raw: string, obj: ObjectDef, alias: string | undefined): AggregateTarget {
    const fn = fnName.toUpperCase() as AggregateFn;
    if (!AGGREGATES.has(fn)) throw this.unsupported(raw, `${fnName}()`);
    if (params.length === 0) {
      if (fn !== 'COUNT') throw this.malformed(raw, `${fn}() takes exactly one field`);
      return { kind: 'aggregate', fn, path: null };
    }
    if (params.length !== 1 || typeof params[0] !== 'string') throw this.malformed(raw, `${fn}() takes exactly one field`);
    const path = this.path(obj, params[0], alias);
    this.checkAggregatable(fn, path);
    return { kind: 'aggregate', fn, path };
  }

  private having(h: HavingClause, obj: ObjectDef, alias: string | undefined, groupBy: FieldPath[]): HavingPredicate {
    const tokens: Token[] = [];
    flatten(h as WhereClause, tokens);
    this.notTokens += tokens.filter((t) => t.t === 'NOT').length;
    this.checkBalanced(tokens);
    let i = 0;
    const expr = (): HavingPredicate => {
      const items = [term()];
      let op: 'AND' | 'OR' | null = null;
      while (tokens[i] && (tokens[i].t === 'AND' || tokens[i].t === 'OR')) {
        const t = tokens[i].t as 'AND' | 'OR';
        if (op && op !== t) throw this.malformed(t, `unexpected token: '${t}'. Use parentheses when a condition mixes AND and OR`);
        op = t;
        i++;
        items.push(term());
      }
      return op === null ? items[0] : op === 'AND' ? { kind: 'and', items } : { kind: 'or', items };
    };
    const term = (): HavingPredicate => {
      const tok = tokens[i++];
      if (!tok) throw this.malformed('HAVING', 'unexpected token: <EOF>');
      if (tok.t === 'NOT') return { kind: 'not', item: term() };
      if (tok.t === '(') {
        const inner = expr();
        if (tokens[i++]?.t !== ')') throw this.malformed('(', "unexpected token: '('");
        return inner;
      }
      if (tok.t !== 'cond') throw this.malformed(tok.t, `unexpected token: '${tok.t}'`);
      const c = tok.c as Condition & { value: string | string[]; literalType?: LiteralType | LiteralType[] };
      let target: AggregateTarget;
      let type: FieldDef['type'];
      if ('fn' in c) {
        target = this.aggregateTarget(c.fn.functionName ?? '', c.fn.parameters ?? [], c.fn.rawValue ?? 'HAVING', obj, alias);
        type = target.kind === 'aggregate' && (target.fn === 'COUNT' || target.fn === 'COUNT_DISTINCT') ? 'int' : target.path!.leaf.type;
        if (target.kind === 'aggregate' && target.fn === 'AVG') type = 'double';
      } else if ('field' in c) {
        const path = this.path(obj, (c as { field: string }).field, alias);
        if (!groupBy.some((g) => samePath(g, path))) throw this.malformed(path.text, `Field must be grouped or aggregated: ${path.leaf.name}`);
        target = { kind: 'group', path };
        type = path.leaf.type;
      } else throw this.malformed('HAVING', 'unexpected token');
      const pseudo = { ...dummyField, name: 'expr', type } as FieldDef;
      const values = Array.isArray(c.value) ? c.value : [c.value];
      const types = Array.isArray(c.literalType) ? c.literalType : values.map(() => c.literalType as LiteralType);
      const operands = values.map((v, k) => this.operand('HAVING', pseudo, types[k], v, undefined));
      const op = c.operator as CmpOp;
      if (!['=', '!=', '<', '<=', '>', '>=', 'IN', 'NOT IN'].includes(op)) throw this.malformed('HAVING', `unexpected token: '${c.operator}'`);
      return { kind: 'cmp', target, type, op, operands };
    };
    const result = expr();
    if (i !== tokens.length) throw this.malformed(')', "unexpected token: ')'");
    return result;
  }

  private orderItem(o: OrderByClause, obj: ObjectDef, alias: string | undefined, aggregate: boolean, groupBy: FieldPath[]): OrderItem {
    const descending = o.order === 'DESC';
    const nullsLast = o.nulls === 'LAST';
    if ('fn' in o) {
      if (!aggregate) throw this.malformed(o.fn.rawValue ?? 'ORDER BY', 'Aggregate functions in ORDER BY need an aggregate query');
      return { target: this.aggregateTarget(o.fn.functionName ?? '', o.fn.parameters ?? [], o.fn.rawValue ?? 'ORDER BY', obj, alias), descending, nullsLast };
    }
    const path = this.path(obj, o.field, alias);
    if (!path.leaf.sortable) throw queryError('INVALID_FIELD', this.soql, this.at(o.field), `field '${path.leaf.name}' can not be sorted in a query call`);
    if (aggregate && !groupBy.some((g) => samePath(g, path))) throw this.malformed(o.field, `Ordered field must be grouped or aggregated: ${path.leaf.name}`);
    return { target: { kind: 'group', path }, descending, nullsLast };
  }
}

const dummyField: Omit<FieldDef, 'name' | 'type'> = {
  label: '', nillable: true, length: 0, referenceTo: [], relationshipName: null, picklist: [], custom: false, calculated: true,
  createable: false, updateable: false, filterable: true, sortable: true, groupable: false, aggregatable: false, nameField: false,
  unique: false, inlineHelpText: null, precision: 0, scale: 0, defaultedOnCreate: false,
};

function samePath(a: FieldPath, b: FieldPath): boolean {
  return a.keys.length === b.keys.length && a.keys.every((k, i) => k === b.keys[i]);
}

function containsSemi(p: Predicate): boolean {
  switch (p.kind) {
    case 'semi': return true;
    case 'and': case 'or': return p.items.some(containsSemi);
    case 'not': return containsSemi(p.item);
    default: return false;
  }
}

function single<T>(v: T | T[] | undefined): T | undefined {
  return Array.isArray(v) ? v[0] : v;
}

/**
 * The parser hands a WHERE clause over as a chain (left condition, operator, rest) with parenthesis
 * counts on the conditions; this lays the chain out as tokens for a precedence-checking parse.
 */
function flatten(w: WhereClause | undefined, out: Token[]): void {
  let node: WhereClause | undefined = w;
  while (node) {
    const left = node.left as (Condition & { openParen?: number; closeParen?: number }) | null;
    const op = 'operator' in node ? node.operator : undefined;
    if (left) {
      const isCondition = 'field' in left || 'fn' in left;
      for (let k = 0; k < (left.openParen ?? 0); k++) out.push({ t: '(' });
      if (isCondition) out.push({ t: 'cond', c: left });
      for (let k = 0; k < (left.closeParen ?? 0); k++) out.push({ t: ')' });
    }
    if (op === 'NOT') out.push({ t: 'NOT' });
    else if (op === 'AND' || op === 'OR') out.push({ t: op });
    node = 'right' in node ? (node.right as WhereClause | undefined) : undefined;
  }
}

/** A quoted SOQL string literal's text: quotes removed, escape sequences resolved (LIKE keeps \% and \_). */
export function unquote(raw: string): string {
  const s = raw.length >= 2 && raw.startsWith("'") && raw.endsWith("'") ? raw.slice(1, -1) : raw;
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    if (ch !== '\\' || i === s.length - 1) {
      out += ch;
      continue;
    }
    const next = s[++i];
    switch (next) {
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case '%': case '_': out += `\\${next}`; break;
      default: out += next;
    }
  }
  return out;
}
