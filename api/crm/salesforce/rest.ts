/**
 * The REST calls the connector makes, each exactly one HTTP request, on jsforce's Connection (the
 * client library the product keeps for Salesforce): jsforce sends them with the session, parses
 * Salesforce's error bodies and reads `Sforce-Limit-Info`; its own retries are off (the shared call
 * policy retries, once, in one place).
 *
 * A query whose URL would pass Salesforce's 16,384-byte request limit (long id lists of two-step
 * conditions) goes in the body of a composite request instead, as Salesforce recommends.
 */
import { Connection, type HttpRequest } from 'jsforce';

export const DEFAULT_API_VERSION = '62.0';
/** Keep request URIs well under Salesforce's 16,384 bytes (headers share the budget). */
export const MAX_QUERY_URL = 12_000;
/** Salesforce: at most 25 subrequests per composite call, at most 5 of them queries. */
export const MAX_COMPOSITE_QUERIES = 5;

export type Raw = Record<string, unknown>;

export interface QueryPage {
  totalSize: number;
  done: boolean;
  nextRecordsUrl?: string;
  records: Raw[];
}

/** A body that is not what Salesforce sends (cut short, not JSON): transient. */
export class IncompleteResponseError extends Error {
  constructor(what: string) {
    super(`incomplete response from Salesforce (${what})`);
    this.name = 'IncompleteResponseError';
  }
}

export interface UserInfo {
  organization_id: string;
  user_id: string;
  preferred_username?: string;
  zoneinfo?: string;
  locale?: string;
}

export interface Subrequest {
  referenceId: string;
  url: string;
  headers?: Record<string, string>;
}

function isPage(x: unknown): x is QueryPage {
  return !!x && typeof x === 'object' && typeof (x as QueryPage).totalSize === 'number' && Array.isArray((x as QueryPage).records);
}

export class SalesforceRest {
  readonly conn: Connection;

  constructor(
    readonly instanceUrl: string,
    accessToken: string,
    readonly version: string = DEFAULT_API_VERSION,
  ) {
    this.conn = new Connection({ instanceUrl, accessToken, version });
  }

  get dataPath(): string {
    return `/services/data/v${this.version}`;
  }

  /** The last `Sforce-Limit-Info` jsforce saw: the org's daily usage. */
  get apiUsage(): { used: number; limit: number } | undefined {
    return this.conn.limitInfo?.apiUsage;
  }

  private async request<T>(req: { method: 'GET' | 'POST'; url: string; body?: string; headers?: Record<string, string> }): Promise<T> {
    const res = await this.conn.request<T>(req as HttpRequest, { retry: { maxRetries: 0 } } as never);
    return res as T;
  }

  queryUrl(soql: string, all = false): string {
    return `${this.dataPath}/${all ? 'queryAll' : 'query'}?q=${encodeURIComponent(soql)}`;
  }

  /** One page of a query (the first), with `Sforce-Query-Options: batchSize` when given. */
  async query(soql: string, batchSize?: number): Promise<QueryPage> {
    const headers = batchSize ? { 'Sforce-Query-Options': `batchSize=${batchSize}` } : undefined;
    const url = this.queryUrl(soql);
    if (this.instanceUrl.length + url.length > MAX_QUERY_URL) {
      const [only] = await this.composite([{ referenceId: 'q', url, headers }]);
      return only as QueryPage;
    }
    const page = await this.request<unknown>({ method: 'GET', url, headers });
    if (!isPage(page)) throw new IncompleteResponseError('query');
    return page;
  }

  /** The next batch of a query (its `nextRecordsUrl`). */
  async queryMore(nextRecordsUrl: string): Promise<QueryPage> {
    const page = await this.request<unknown>({ method: 'GET', url: nextRecordsUrl });
    if (!isPage(page)) throw new IncompleteResponseError('queryMore');
    return page;
  }

  /**
   * Several GETs as one API call (Salesforce counts a composite request once). A failed subrequest
   * throws its error as a direct call would.
   */
  async composite(subrequests: Subrequest[]): Promise<unknown[]> {
    const body = {
      allOrNone: false,
      compositeRequest: subrequests.map((s) => ({ method: 'GET', url: s.url, referenceId: s.referenceId, ...(s.headers ? { httpHeaders: s.headers } : {}) })),
    };
    const res = await this.request<{ compositeResponse?: { body: unknown; httpStatusCode: number; referenceId: string }[] }>({
      method: 'POST',
      url: `${this.dataPath}/composite`,
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
    });
    const answers = res?.compositeResponse;
    if (!Array.isArray(answers) || answers.length !== subrequests.length) throw new IncompleteResponseError('composite');
    return answers.map((a) => {
      if (a.httpStatusCode >= 400) {
        const first = Array.isArray(a.body) ? (a.body[0] as { errorCode?: string; message?: string }) : undefined;
        const err = new Error(first?.message ?? `HTTP ${a.httpStatusCode}`) as Error & { errorCode: string };
        err.name = err.errorCode = first?.errorCode ?? `ERROR_HTTP_${a.httpStatusCode}`;
        throw err;
      }
      return a.body;
    });
  }

  /** Query pages by composite: each result checked to be a page. */
  async queries(items: { referenceId: string; soql: string; batchSize?: number }[]): Promise<QueryPage[]> {
    const answers = await this.composite(
      items.map((q) => ({ referenceId: q.referenceId, url: this.queryUrl(q.soql), ...(q.batchSize ? { headers: { 'Sforce-Query-Options': `batchSize=${q.batchSize}` } } : {}) })),
    );
    return answers.map((a) => {
      if (!isPage(a)) throw new IncompleteResponseError('composite query');
      return a;
    });
  }

  /** OpenID Connect userinfo: who the session is, the org, the user's time zone and locale (not counted against the API allocation). */
  async userinfo(): Promise<UserInfo> {
    const info = await this.request<unknown>({ method: 'GET', url: `${this.instanceUrl}/services/oauth2/userinfo` });
    if (!info || typeof info !== 'object' || typeof (info as UserInfo).organization_id !== 'string') throw new IncompleteResponseError('userinfo');
    return info as UserInfo;
  }
}
