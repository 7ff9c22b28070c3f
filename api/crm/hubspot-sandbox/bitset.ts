/** Fixed-size bitsets over row numbers (0..n-1), used to combine filter results quickly. */
export class Bitset {
  readonly words: Uint32Array;

  constructor(readonly size: number, words?: Uint32Array) {
    this.words = words ?? new Uint32Array((size + 31) >>> 5);
  }

  static full(size: number): Bitset {
    const b = new Bitset(size);
    b.words.fill(0xffffffff);
    b.maskTail();
    return b;
  }

  static fromRows(size: number, rows: ArrayLike<number>, start = 0, end = rows.length): Bitset {
    const b = new Bitset(size);
    const w = b.words;
    for (let i = start; i < end; i++) {
      const r = rows[i];
      w[r >>> 5] |= 1 << (r & 31);
    }
    return b;
  }

  clone(): Bitset {
    return new Bitset(this.size, this.words.slice());
  }

  set(row: number): void {
    this.words[row >>> 5] |= 1 << (row & 31);
  }

  has(row: number): boolean {
    return (this.words[row >>> 5] & (1 << (row & 31))) !== 0;
  }

  addRows(rows: ArrayLike<number>, start = 0, end = rows.length): this {
    const w = this.words;
    for (let i = start; i < end; i++) {
      const r = rows[i];
      w[r >>> 5] |= 1 << (r & 31);
    }
    return this;
  }

  and(other: Bitset): this {
    const a = this.words;
    const b = other.words;
    for (let i = 0; i < a.length; i++) a[i] &= b[i];
    return this;
  }

  or(other: Bitset): this {
    const a = this.words;
    const b = other.words;
    for (let i = 0; i < a.length; i++) a[i] |= b[i];
    return this;
  }

  /** In-place complement (rows outside 0..size-1 stay clear). */
  not(): this {
    const a = this.words;
    for (let i = 0; i < a.length; i++) a[i] = ~a[i];
    this.maskTail();
    return this;
  }

  count(): number {
    let c = 0;
    const a = this.words;
    for (let i = 0; i < a.length; i++) {
      let v = a[i];
      if (v === 0) continue;
      v = v - ((v >>> 1) & 0x55555555);
      v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
      c += (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
    }
    return c;
  }

  /** Row numbers in ascending order. */
  toRows(): Uint32Array {
    const out = new Uint32Array(this.count());
    let k = 0;
    const a = this.words;
    for (let i = 0; i < a.length; i++) {
      let v = a[i];
      while (v !== 0) {
        const t = v & -v;
        out[k++] = (i << 5) + (31 - Math.clz32(t));
        v ^= t;
      }
    }
    return out;
  }

  private maskTail(): void {
    const rem = this.size & 31;
    if (rem !== 0 && this.words.length > 0) this.words[this.words.length - 1] &= (1 << rem) - 1 || 0xffffffff;
  }
}
