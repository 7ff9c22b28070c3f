// Records the Prisma calls made while a piece of code runs (model.method and the shape of the
// arguments), so tests can snapshot the database work of a GraphQL read: an N+1 shows up as a
// longer list, and a list that grows with the data shows up when two sizes are compared.
import type { PrismaClient } from '@prisma/client';
import type { ServiceDeps } from '../../api/services/deps.js';

export interface RecordedCall {
  call: string;
  /** Top-level argument keys and the relations loaded with include/select (no values). */
  shape: string;
}

function relations(arg: unknown, depth = 0): string[] {
  if (!arg || typeof arg !== 'object' || depth > 4) return [];
  const out: string[] = [];
  for (const key of ['include', 'select'] as const) {
    const v = (arg as Record<string, unknown>)[key];
    if (!v || typeof v !== 'object') continue;
    for (const [name, sub] of Object.entries(v)) {
      // every key of `include` is a relation; in `select`, relations are the object-valued keys
      if (sub && (typeof sub === 'object' || key === 'include')) {
        const nested = relations(sub, depth + 1);
        out.push(nested.length ? `${name}(${nested.join(',')})` : name);
      }
    }
  }
  return out.sort();
}

const shapeOf = (arg: unknown) => {
  if (!arg || typeof arg !== 'object') return '';
  const keys = Object.keys(arg).filter((k) => k !== 'include' && k !== 'select').sort();
  const rel = relations(arg);
  return [keys.join(','), rel.length ? `with ${rel.join(',')}` : ''].filter(Boolean).join(' ');
};

/** Swaps deps.prisma for a recording proxy while `fn` runs; returns the calls in order. */
export async function recordPrismaCalls(deps: ServiceDeps, fn: () => Promise<unknown>): Promise<RecordedCall[]> {
  const calls: RecordedCall[] = [];
  const real = deps.prisma;
  const recording = new Proxy(real, {
    get(target, prop) {
      const value = Reflect.get(target, prop);
      if (typeof prop !== 'string') return value;
      if (typeof value === 'function' && prop.startsWith('$')) {
        return (...args: unknown[]) => {
          calls.push({ call: prop, shape: '' });
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      if (!value || typeof value !== 'object' || !('findMany' in value)) return value;
      return new Proxy(value, {
        get(delegate, method) {
          const fn = Reflect.get(delegate, method);
          if (typeof fn !== 'function' || typeof method !== 'string') return fn;
          return (...args: unknown[]) => {
            calls.push({ call: `${prop}.${method}`, shape: shapeOf(args[0]) });
            return fn.apply(delegate, args);
          };
        },
      });
    },
  }) as PrismaClient;
  deps.prisma = recording;
  try {
    await fn();
  } finally {
    deps.prisma = real;
  }
  return calls;
}
