// Configuration: environment variables parsed and validated with zod. Everything has an embedded
// default so `npm start` works on a fresh machine; secrets that are not given by env are generated
// once into <DATA_DIR>/secrets.json (mode 0600) so sessions and stored CRM tokens survive restarts.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const port = z.coerce.number().int().min(0).max(65535);
const key32 = z
  .string()
  .refine((v) => decodeKey(v) !== null, 'must be 32 bytes, given as 64 hex characters or base64');

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
  LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).default(10),
  LOGIN_WINDOW_MINUTES: z.coerce.number().int().min(1).default(15),
  USAGE_TIME_ZONE: z
    .string()
    .refine((tz) => isTimeZone(tz), 'must be an IANA time zone such as UTC or Europe/Berlin')
    .default('UTC'),
  SEED_ADMIN_EMAIL: z.email().default('admin@crm-assistant.local'),
  SEED_ADMIN_PASSWORD: z.string().min(8).optional(),
  SEED_DEMO_EMAIL: z.email().default('demo@crm-assistant.local'),
  SEED_DEMO_PASSWORD: z.string().min(8).optional(),
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
  // CRM calls: one attempt's time limit, the retry budget of a call, the first backoff step.
  CRM_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  CRM_RETRY_DEADLINE_MS: z.coerce.number().int().min(0).max(3_600_000).default(60_000),
  CRM_RETRY_BASE_MS: z.coerce.number().int().min(1).max(60_000).default(500),
  SANDBOX_CONTACTS: z.coerce.number().int().min(1).max(1_000_000).default(5000),
  SANDBOX_SEED: z.coerce.number().int().default(42),
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
  login: { maxFailures: number; windowMinutes: number };
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
  sandbox: { contacts: number; seed: number };
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
    login: { maxFailures: e.LOGIN_MAX_FAILURES, windowMinutes: e.LOGIN_WINDOW_MINUTES },
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
    sandbox: { contacts: e.SANDBOX_CONTACTS, seed: e.SANDBOX_SEED },
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
