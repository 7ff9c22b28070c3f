/**
 * SOQL literals as the connector writes them: quoted strings with SOQL's escapes, LIKE patterns with
 * their wildcards escaped, dates and dateTimes in the formats SOQL accepts.
 */

/** A SOQL string literal: backslash, quote and control characters escaped. */
export function soqlString(s: string): string {
  let out = "'";
  for (const ch of s) {
    switch (ch) {
      case '\\': out += '\\\\'; break;
      case "'": out += "\\'"; break;
      case '\n': out += '\\n'; break;
      case '\r': out += '\\r'; break;
      case '\t': out += '\\t'; break;
      case '\b': out += '\\b'; break;
      case '\f': out += '\\f'; break;
      default: out += ch;
    }
  }
  return `${out}'`;
}

/** The text of a LIKE pattern that matches `s` literally (% and _ escaped), before quoting. */
export function likeLiteral(s: string): string {
  let out = '';
  for (const ch of s) out += ch === '%' || ch === '_' ? `\\${ch}` : ch;
  return out;
}

/** A LIKE pattern as a SOQL literal: `%` + s + `%` style parts are joined by the caller. */
export function soqlLike(pattern: string): string {
  // Quote without re-escaping the pattern's own \% and \_ (soqlString would double the backslash).
  let out = "'";
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '\\' && (pattern[i + 1] === '%' || pattern[i + 1] === '_')) {
      out += `\\${pattern[++i]}`;
      continue;
    }
    out += ch === "'" ? "\\'" : ch === '\\' ? '\\\\' : ch;
  }
  return `${out}'`;
}

/** 2026-06-15T12:00:00Z (SOQL dateTime literals carry no fraction: callers round to the second). */
export function soqlDateTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

/** UTC calendar day of an instant, YYYY-MM-DD. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The instant a date field's day stands for in the product: midnight UTC (the product's dates are UTC days). */
export function dayInstant(day: string): number {
  return Date.parse(`${day}T00:00:00Z`);
}

/** The day after a YYYY-MM-DD day. */
export function nextDay(day: string): string {
  return utcDay(dayInstant(day) + 86_400_000);
}
