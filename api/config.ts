// Configuration: environment variables parsed and validated with zod. Everything has an embedded
// default so `npm start` works on a fresh machine; secrets that are not given by env are generated
// once into <DATA_DIR>/secrets.json (mode 0600) so sessions and stored CRM tokens survive restarts.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { newPasswordField } from './services/password-policy.js';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const port = z.coerce.number().int().min(0).max(65535);
const key32 = z
  .string()
  .refine((v) => decodeKey(v) !== null, 'must be 32 bytes, given as 64 hex characters or base64');

// The seeded accounts' passwords follow the one password policy, like every other password.
const seedPassword = newPasswordField('must not be empty');

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: port.default(3000),
  PUBLIC_URL: z.url().optional(),
  DATA_DIR: z.string().min(1).default('.data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgresql:// URL')
    .optional(),
  EMBEDDED_DB_PORT: port.default(0),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  READ_CACHE_TTL_MS: z.coerce.number().int().min(0).max(60_000).default(10_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  TOKEN_ENCRYPTION_KEY: key32.optional(),
  SESSION_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  // Sign-in throttle (services/login-throttle.ts): attempts per e-mail and address, and per address
  // across e-mails; registrations per address.
  LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).default(10),
  LOGIN_WINDOW_MINUTES: z.coerce.number().int().min(1).default(15),
  LOGIN_IP_MAX_FAILURES: z.coerce.number().int().min(1).default(100),
  LOGIN_IP_WINDOW_MINUTES: z.coerce.number().int().min(1).default(60),
  REGISTER_MAX_PER_IP: z.coerce.number().int().min(1).default(20),
  REGISTER_WINDOW_MINUTES: z.coerce.number().int().min(1).default(60),
  // Mail (services/mailer.ts) and password resets (services/password-reset.ts). Without SMTP_URL mail
  // is written to the log (and, outside production, to the outbox page /api/dev/outbox).
  SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL, e.g. smtp://user:password@mail.example.com:587').optional(),
  MAIL_FROM: z.string().min(3).default('CRM Assistant <no-reply@crm-assistant.local>'),
  MAIL_OUTBOX: bool.optional(),
  PASSWORD_RESET_TTL_MINUTES: z.coerce.number().int().min(5).max(1440).default(60),
  PASSWORD_RESET_MAX_PER_EMAIL: z.coerce.number().int().min(1).default(3),
  PASSWORD_RESET_MAX_PER_IP: z.coerce.number().int().min(1).default(20),
  PASSWORD_RESET_WINDOW_MINUTES: z.coerce.number().int().min(1).default(60),
  // Request bodies (http/body-limit.ts): REST routes (per-route overrides in code) and /graphql.
  REST_BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(1024 * 1024),
  GRAPHQL_BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(256 * 1024),
  USAGE_TIME_ZONE: z
    .string()
    .refine((tz) => isTimeZone(tz), 'must be an IANA time zone such as UTC or Europe/Berlin')
    .default('UTC'),
  SEED_ADMIN_EMAIL: z.email().default('admin@crm-assistant.local'),
  SEED_ADMIN_PASSWORD: seedPassword.optional(),
  SEED_DEMO_EMAIL: z.email().default('demo@crm-assistant.local'),
  SEED_DEMO_PASSWORD: seedPassword.optional(),
  SEED_ON_START: bool.default(true),
  RUN_WORKER: bool.optional(),
  REDIS_URL: z.string().regex(/^rediss?:\/\//, 'must be a redis:// URL').optional(),
  AGENDA_MONGODB_URL: z.string().regex(/^mongodb(\+srv)?:\/\//, 'must be a mongodb:// URL').optional(),
  // CRM (HubSpot). Without HUBSPOT_API_BASE_URL the embedded HubSpot sandbox is mounted and used.
  HUBSPOT_API_BASE_URL: z.url().optional(),
  HUBSPOT_AUTH_BASE_URL: z.url().optional(),
  HUBSPOT_CLIENT_ID: z.string().min(1).optional(),
  HUBSPOT_CLIENT_SECRET: z.string().min(1).optional(),
  HUBSPOT_SCOPES: z.string().default('crm.objects.contacts.read crm.schemas.contacts.read oauth'),
  // CRM (Salesforce). Without SALESFORCE_LOGIN_URL the embedded Salesforce sandbox is mounted and used.
  SALESFORCE_LOGIN_URL: z.url().optional(),
  SALESFORCE_CLIENT_ID: z.string().min(1).optional(),
  SALESFORCE_CLIENT_SECRET: z.string().min(1).optional(),
  SALESFORCE_SCOPES: z.string().default('api refresh_token'),
  SALESFORCE_API_VERSION: z.string().regex(/^\d{2}\.0$/, 'must look like 62.0').default('62.0'),
  // Hosts a pasted instance URL may point at (suffixes; https only), besides the embedded sandbox.
  SALESFORCE_INSTANCE_HOSTS: z.string().default('salesforce.com,force.com,salesforce.mil,cloudforce.com,database.com'),
  // Share of the org's daily API allocation left to its other integrations (the product stops short of it).
  SALESFORCE_API_RESERVE_PERCENT: z.coerce.number().min(0).max(90).default(10),
  SALESFORCE_SANDBOX_TIME_ZONE: z.string().default('America/Los_Angeles'),
  // Pipedrive. Without PIPEDRIVE_API_BASE_URL the embedded Pipedrive sandbox is mounted and used.
  PIPEDRIVE_API_BASE_URL: z.url().optional(),
  PIPEDRIVE_OAUTH_BASE_URL: z.url().optional(),
  PIPEDRIVE_CLIENT_ID: z.string().min(1).optional(),
  PIPEDRIVE_CLIENT_SECRET: z.string().min(1).optional(),
  // CRM (Zoho). Without ZOHO_CLIENT_ID or ZOHO_ACCOUNTS_URL the embedded Zoho sandbox is mounted and used.
  ZOHO_CLIENT_ID: z.string().min(1).optional(),
  ZOHO_CLIENT_SECRET: z.string().min(1).optional(),
  /** accounts server with `{dc}` for the data centre (default Zoho's own per data centre) */
  ZOHO_ACCOUNTS_URL: z.string().includes('{dc}').optional(),
  /** API domain with `{dc}` (default Zoho's own per data centre; a token's api_domain wins) */
  ZOHO_API_DOMAIN: z.string().includes('{dc}').optional(),
  ZOHO_DATA_CENTRE: z.enum(['us', 'eu', 'in', 'au', 'jp', 'ca', 'cn', 'sa']).default('us'),
  /** calls in flight at once per Zoho org (Zoho refuses beyond 10–25 by edition) */
  ZOHO_CONCURRENCY: z.coerce.number().int().min(1).max(25).default(5),
  SANDBOX_ZOHO_DC: z.enum(['us', 'eu', 'in', 'au', 'jp', 'ca', 'cn', 'sa']).default('us'),
  // CRM calls: one attempt's time limit, the retry budget of a call, the first backoff step.
  CRM_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  CRM_RETRY_DEADLINE_MS: z.coerce.number().int().min(0).max(3_600_000).default(60_000),
  CRM_RETRY_BASE_MS: z.coerce.number().int().min(1).max(60_000).default(500),
  SANDBOX_CONTACTS: z.coerce.number().int().min(1).max(1_000_000).default(5000),
  SANDBOX_SEED: z.coerce.number().int().default(42),
  /**
   * Benchmarks only: every request to a mounted CRM sandbox waits this long before it is answered, as a
   * real CRM's round trip would (tests/bench/query-e2e.ts). Refused in production.
   */
  SANDBOX_LATENCY_MS: z.coerce.number().int().min(0).max(10_000).default(0),
  // Optional language-model parser (OpenAI-compatible chat completions); default: built-in parser.
  LLM_BASE_URL: z.url().optional(),
  LLM_API_KEY: z.string().min(1).optional(),
  LLM_MODEL: z.string().min(1).default('gpt-4o-mini'),
  // Billing (Paddle, sandbox)
  PADDLE_ENVIRONMENT: z.enum(['sandbox', 'production']).default('sandbox'),
  PADDLE_CLIENT_TOKEN: z.string().default('test_sandbox_client_token'),
  PADDLE_WEBHOOK_SECRET: z.string().min(1).optional(),
});

export type Env = z.infer<typeof envSchema>;

export interface Config {
  env: Env['NODE_ENV'];
  host: string;
  port: number;
  publicUrl: string | undefined;
  dataDir: string;
  databaseUrl: string | undefined;
  embeddedDbPort: number;
  logLevel: Env['LOG_LEVEL'];
  /** On SIGTERM: how long in-flight requests and jobs may take to finish before connections are cut. */
  shutdownTimeoutMs: number;
  /** How long a cached session or usage snapshot may be served (0: no cache); see services/read-cache.ts */
  readCacheTtlMs: number;
  sessionSecret: string;
  tokenEncryptionKey: Buffer;
  sessionTtlDays: number;
  login: { maxFailures: number; windowMinutes: number; ipMaxFailures: number; ipWindowMinutes: number };
  registration: { maxPerIp: number; windowMinutes: number };
  /** smtpUrl carries the SMTP password: never log it. outbox: mail kept for /api/dev/outbox. */
  mail: { smtpUrl: string | undefined; from: string; outbox: boolean };
  passwordReset: { ttlMinutes: number; maxPerEmail: number; maxPerIp: number; windowMinutes: number };
  bodyLimits: { restBytes: number; graphqlBytes: number };
  usageTimeZone: string;
  seed: {
    onStart: boolean;
    adminEmail: string;
    adminPassword: string | undefined;
    demoEmail: string;
    demoPassword: string | undefined;
  };
  runWorker: boolean | undefined;
  redisUrl: string | undefined;
  agendaMongoUrl: string | undefined;
  hubspot: {
    apiBaseUrl: string | undefined;
    authBaseUrl: string | undefined;
    clientId: string | undefined;
    clientSecret: string | undefined;
    scopes: string[];
  };
  salesforce: {
    loginUrl: string | undefined;
    clientId: string | undefined;
    clientSecret: string | undefined;
    scopes: string[];
    apiVersion: string;
    instanceHosts: string[];
    apiReserve: number;
    sandboxTimeZone: string;
  };
  pipedrive: {
    apiBaseUrl: string | undefined;
    oauthBaseUrl: string | undefined;
    clientId: string | undefined;
    clientSecret: string | undefined;
  };
  zoho: {
    clientId: string | undefined;
    clientSecret: string | undefined;
    accountsUrl: string | undefined;
    apiDomain: string | undefined;
    dataCentre: 'us' | 'eu' | 'in' | 'au' | 'jp' | 'ca' | 'cn' | 'sa';
    concurrency: number;
    sandboxDataCentre: 'us' | 'eu' | 'in' | 'au' | 'jp' | 'ca' | 'cn' | 'sa';
  };
  /** the embedded CRM sandboxes: their people, and a per-request latency for benchmarks (0 in production) */
  sandbox: { contacts: number; seed: number; latencyMs: number };
  crmRetry: { requestTimeoutMs: number; retryDeadlineMs: number; baseBackoffMs: number };
  llm: { baseUrl: string; apiKey: string | undefined; model: string } | undefined;
  paddle: { environment: 'sandbox' | 'production'; clientToken: string; webhookSecret: string };
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parses and validates the environment. Throws ConfigError with one line per bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const raw = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (e.NODE_ENV === 'production' && e.SANDBOX_LATENCY_MS > 0) {
    throw new ConfigError('Invalid configuration:\n  SANDBOX_LATENCY_MS: a benchmark option, never set in production');
  }
  const dataDir = path.resolve(e.DATA_DIR);
  const secrets =
    e.SESSION_SECRET && e.TOKEN_ENCRYPTION_KEY && e.PADDLE_WEBHOOK_SECRET
      ? null
      : loadOrCreateSecrets(dataDir);
  return {
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    publicUrl: e.PUBLIC_URL?.replace(/\/$/, ''),
    dataDir,
    databaseUrl: e.DATABASE_URL,
    embeddedDbPort: e.EMBEDDED_DB_PORT,
    logLevel: e.LOG_LEVEL,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    readCacheTtlMs: e.READ_CACHE_TTL_MS,
    sessionSecret: e.SESSION_SECRET ?? secrets!.sessionSecret,
    tokenEncryptionKey: decodeKey(e.TOKEN_ENCRYPTION_KEY ?? secrets!.tokenEncryptionKey)!,
    sessionTtlDays: e.SESSION_TTL_DAYS,
    login: {
      maxFailures: e.LOGIN_MAX_FAILURES,
      windowMinutes: e.LOGIN_WINDOW_MINUTES,
      ipMaxFailures: e.LOGIN_IP_MAX_FAILURES,
      ipWindowMinutes: e.LOGIN_IP_WINDOW_MINUTES,
    },
    registration: { maxPerIp: e.REGISTER_MAX_PER_IP, windowMinutes: e.REGISTER_WINDOW_MINUTES },
    mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM, outbox: e.MAIL_OUTBOX ?? (!e.SMTP_URL && e.NODE_ENV !== 'production') },
    passwordReset: {
      ttlMinutes: e.PASSWORD_RESET_TTL_MINUTES,
      maxPerEmail: e.PASSWORD_RESET_MAX_PER_EMAIL,
      maxPerIp: e.PASSWORD_RESET_MAX_PER_IP,
      windowMinutes: e.PASSWORD_RESET_WINDOW_MINUTES,
    },
    bodyLimits: { restBytes: e.REST_BODY_LIMIT_BYTES, graphqlBytes: e.GRAPHQL_BODY_LIMIT_BYTES },
    usageTimeZone: e.USAGE_TIME_ZONE,
    seed: {
      onStart: e.SEED_ON_START,
      adminEmail: e.SEED_ADMIN_EMAIL.toLowerCase(),
      adminPassword: e.SEED_ADMIN_PASSWORD,
      demoEmail: e.SEED_DEMO_EMAIL.toLowerCase(),
      demoPassword: e.SEED_DEMO_PASSWORD,
    },
    runWorker: e.RUN_WORKER,
    redisUrl: e.REDIS_URL,
    agendaMongoUrl: e.AGENDA_MONGODB_URL,
    hubspot: {
      apiBaseUrl: e.HUBSPOT_API_BASE_URL?.replace(/\/$/, ''),
      authBaseUrl: e.HUBSPOT_AUTH_BASE_URL?.replace(/\/$/, ''),
      clientId: e.HUBSPOT_CLIENT_ID,
      clientSecret: e.HUBSPOT_CLIENT_SECRET,
      scopes: e.HUBSPOT_SCOPES.split(/[\s,]+/).filter(Boolean),
    },
    salesforce: {
      loginUrl: e.SALESFORCE_LOGIN_URL?.replace(/\/$/, ''),
      clientId: e.SALESFORCE_CLIENT_ID,
      clientSecret: e.SALESFORCE_CLIENT_SECRET,
      scopes: e.SALESFORCE_SCOPES.split(/[\s,]+/).filter(Boolean),
      apiVersion: e.SALESFORCE_API_VERSION,
      instanceHosts: e.SALESFORCE_INSTANCE_HOSTS.split(/[\s,]+/).filter(Boolean).map((h) => h.toLowerCase()),
      apiReserve: e.SALESFORCE_API_RESERVE_PERCENT / 100,
      sandboxTimeZone: e.SALESFORCE_SANDBOX_TIME_ZONE,
    },
    pipedrive: {
      apiBaseUrl: e.PIPEDRIVE_API_BASE_URL?.replace(/\/$/, ''),
      oauthBaseUrl: e.PIPEDRIVE_OAUTH_BASE_URL?.replace(/\/$/, ''),
      clientId: e.PIPEDRIVE_CLIENT_ID,
      clientSecret: e.PIPEDRIVE_CLIENT_SECRET,
    },
    zoho: {
      clientId: e.ZOHO_CLIENT_ID,
      clientSecret: e.ZOHO_CLIENT_SECRET,
      accountsUrl: e.ZOHO_ACCOUNTS_URL?.replace(/\/$/, ''),
      apiDomain: e.ZOHO_API_DOMAIN?.replace(/\/$/, ''),
      dataCentre: e.ZOHO_DATA_CENTRE,
      concurrency: e.ZOHO_CONCURRENCY,
      sandboxDataCentre: e.SANDBOX_ZOHO_DC,
    },
    sandbox: { contacts: e.SANDBOX_CONTACTS, seed: e.SANDBOX_SEED, latencyMs: e.SANDBOX_LATENCY_MS },
    crmRetry: { requestTimeoutMs: e.CRM_REQUEST_TIMEOUT_MS, retryDeadlineMs: e.CRM_RETRY_DEADLINE_MS, baseBackoffMs: e.CRM_RETRY_BASE_MS },
    llm: e.LLM_BASE_URL ? { baseUrl: e.LLM_BASE_URL.replace(/\/$/, ''), apiKey: e.LLM_API_KEY, model: e.LLM_MODEL } : undefined,
    paddle: {
      environment: e.PADDLE_ENVIRONMENT,
      clientToken: e.PADDLE_CLIENT_TOKEN,
      webhookSecret: e.PADDLE_WEBHOOK_SECRET ?? secrets!.paddleWebhookSecret,
    },
  };
}

interface SecretsFile {
  sessionSecret: string;
  tokenEncryptionKey: string;
  paddleWebhookSecret: string;
}

function loadOrCreateSecrets(dataDir: string): SecretsFile {
  const file = path.join(dataDir, 'secrets.json');
  mkdirSync(dataDir, { recursive: true });
  let current: Partial<SecretsFile> = {};
  if (existsSync(file)) {
    try {
      current = JSON.parse(readFileSync(file, 'utf8')) as Partial<SecretsFile>;
    } catch {
      throw new ConfigError(`Invalid configuration:\n  ${file}: not valid JSON; fix or delete it`);
    }
  }
  const complete: SecretsFile = {
    sessionSecret: current.sessionSecret ?? randomBytes(32).toString('base64url'),
    tokenEncryptionKey: current.tokenEncryptionKey ?? randomBytes(32).toString('base64'),
    paddleWebhookSecret: current.paddleWebhookSecret ?? `pdl_ntfset_${randomBytes(16).toString('hex')}`,
  };
  if (JSON.stringify(complete) !== JSON.stringify(current)) {
    writeFileSync(file, JSON.stringify(complete, null, 2) + '\n', { mode: 0o600 });
  }
  chmodSync(file, 0o600);
  return complete;
}

function decodeKey(value: string): Buffer | null {
  if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, 'hex');
  const b = Buffer.from(value, 'base64');
  return b.length === 32 ? b : null;
}

function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}
