/**
 * Real HS256 JWTs with a key made per run. A token is verified once and its claims kept until it
 * expires, so a busy checkout route does not pay for a signature check on every request.
 */
import { randomBytes } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';

export interface TokenClaims {
  sub: string;
  client_id: string;
  exp: number;
}

export type Verdict = { ok: true; claims: TokenClaims } | { ok: false; reason: 'invalid' | 'expired' };

const CACHE_LIMIT = 50_000;

export class TokenIssuer {
  readonly #key = randomBytes(32);
  readonly #verified = new Map<string, TokenClaims>();

  constructor(private readonly now: () => Date) {}

  async issue(username: string, clientId: string, ttlSeconds: number): Promise<string> {
    const iat = Math.floor(this.now().getTime() / 1000);
    return new SignJWT({ client_id: clientId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(username)
      .setIssuedAt(iat)
      .setExpirationTime(iat + ttlSeconds)
      .setJti(randomBytes(8).toString('hex'))
      .sign(this.#key);
  }

  /** The verdict on `token`: at once for a token already checked, else once its signature is. */
  verify(token: string): Verdict | Promise<Verdict> {
    const cached = this.#verified.get(token);
    if (!cached) return this.#check(token);
    return cached.exp > this.now().getTime() / 1000
      ? { ok: true, claims: cached }
      : { ok: false, reason: 'expired' };
  }

  async #check(token: string): Promise<Verdict> {
    try {
      const { payload } = await jwtVerify(token, this.#key, {
        algorithms: ['HS256'],
        currentDate: this.now(),
      });
      const claims = {
        sub: String(payload.sub),
        client_id: String(payload.client_id),
        exp: Number(payload.exp),
      };
      if (this.#verified.size >= CACHE_LIMIT) this.#verified.clear();
      this.#verified.set(token, claims);
      return { ok: true, claims };
    } catch (error) {
      return { ok: false, reason: error instanceof errors.JWTExpired ? 'expired' : 'invalid' };
    }
  }
}
