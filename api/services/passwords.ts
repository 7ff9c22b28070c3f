// Password hashing with argon2id at OWASP's recommended cost (Password Storage Cheat Sheet: 19 MiB,
// 2 iterations, 1 lane). The library's defaults (64 MiB, t=3, p=4) cost 8× more CPU per sign-in on
// our 2-core machines; 200 people signing in within ten seconds then queued every other request
// for half a minute behind the hashing (npm run bench -- concurrency). A hash records its own
// parameters, so older hashes still verify; they are replaced at the next successful sign-in.
import argon2 from 'argon2';

const OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string) => argon2.hash(password, OPTIONS);

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

/** Whether a verified hash was made with other parameters than today's (to be replaced). */
export function needsRehash(hash: string): boolean {
  try {
    return argon2.needsRehash(hash, OPTIONS);
  } catch {
    return false;
  }
}

// Verified against when the email is unknown, so response time does not reveal which emails exist.
let dummyHash: Promise<string> | undefined;
export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hashPassword('not-a-real-password-used-for-timing');
  await verifyPassword(await dummyHash, password);
}
