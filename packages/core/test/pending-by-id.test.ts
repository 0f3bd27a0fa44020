import { describe, expect, it } from 'vitest';
import { PendingById } from '../src/jsonrpc/pending-by-id.ts';

// The requests a side waits on, by its own integer ids (src/jsonrpc/pending-by-id.ts).

const entry = (id: number) => ({ id });

describe('PendingById', () => {
  it('finds an entry by its id only: not by the same digits as a string, nor by a near number', () => {
    const table = new PendingById<{ id: number }>();
    const five = entry(5);
    table.add(five);
    expect(table.get(5)).toBe(five);
    expect(table.get('5')).toBeUndefined();
    expect(table.get(5.5)).toBeUndefined();
    expect(table.get(5 + 64)).toBeUndefined();
    expect(table.get(-59)).toBeUndefined();
    table.delete(five);
    expect(table.get(5)).toBeUndefined();
    expect(table.size).toBe(0);
  });

  it('keeps a request that waits while many later ones come and go, whatever the ring does', () => {
    const table = new PendingById<{ id: number }>();
    const slow = entry(0);
    table.add(slow);
    const waiting: { id: number }[] = [];
    for (let id = 1; id < 20_000; id++) {
      const e = entry(id);
      table.add(e);
      if (id % 1000 === 0) waiting.push(e);
      else {
        expect(table.get(id)).toBe(e);
        table.delete(e);
      }
    }
    expect(table.size).toBe(1 + waiting.length);
    expect(table.get(0)).toBe(slow);
    for (const e of waiting) expect(table.get(e.id)).toBe(e);
    expect(table.entries().map((e) => e.id)).toEqual([0, ...waiting.map((e) => e.id)]);
    for (const e of [slow, ...waiting]) table.delete(e);
    expect(table.size).toBe(0);
    expect(table.entries()).toEqual([]);
  });

  it('takes more waiting requests at once than it has slots at first', () => {
    const table = new PendingById<{ id: number }>();
    const all = Array.from({ length: 10_000 }, (_, i) => entry(1_000_000 + i));
    for (const e of all) table.add(e);
    expect(table.size).toBe(all.length);
    for (const e of all) expect(table.get(e.id)).toBe(e);
    expect(table.entries()).toEqual(all);
    for (const e of all) table.delete(e);
    expect(table.size).toBe(0);
  });

  it('a second delete of the same entry changes nothing', () => {
    const table = new PendingById<{ id: number }>();
    const a = entry(1);
    const b = entry(2);
    table.add(a);
    table.add(b);
    table.delete(a);
    table.delete(a);
    expect(table.size).toBe(1);
    expect(table.get(2)).toBe(b);
  });
});
