import { describe, expect, it } from 'vitest';
import { InFlight } from '../src/jsonrpc/in-flight.ts';

describe('InFlight (the requests an engine serves)', () => {
  it('keeps items in the order added, whichever are taken out', () => {
    const list = new InFlight<string>();
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((item) => list.add(item));
    list.remove(b);
    list.remove(d);
    expect(list.items()).toEqual(['a', 'c']);
    list.remove(a);
    list.remove(c);
    expect(list.items()).toEqual([]);
    expect(list.size).toBe(0);
    list.add('e');
    expect(list.items()).toEqual(['e']);
    expect(list.size).toBe(1);
  });

  it('an entry taken out forgets its neighbours, so nothing still in the list is reachable from it', () => {
    const list = new InFlight<string>();
    list.add('a');
    const b = list.add('b');
    list.add('c');
    list.remove(b);
    expect(b.prev).toBeUndefined();
    expect(b.next).toBeUndefined();
  });

  it('taking an entry out twice changes nothing the second time', () => {
    const list = new InFlight<string>();
    const only = list.add('only');
    const other = list.add('other');
    list.remove(only);
    list.remove(only);
    expect(list.size).toBe(1);
    expect(list.items()).toEqual(['other']);
    list.remove(other);
    list.remove(other);
    expect(list.size).toBe(0);
    expect(list.items()).toEqual([]);
  });

  it('finds the item added last that matches', () => {
    const list = new InFlight<{ id: number; n: number }>();
    list.add({ id: 1, n: 1 });
    list.add({ id: 2, n: 2 });
    list.add({ id: 1, n: 3 });
    expect(list.findLast((item) => item.id === 1)?.n).toBe(3);
    expect(list.findLast((item) => item.id === 3)).toBeUndefined();
  });

  it('items() is a copy: what is done with each may take entries out', () => {
    const list = new InFlight<number>();
    const entries = [1, 2, 3].map((n) => list.add(n));
    const seen: number[] = [];
    for (const n of list.items()) {
      seen.push(n);
      for (const entry of entries) list.remove(entry);
    }
    expect(seen).toEqual([1, 2, 3]);
    expect(list.size).toBe(0);
  });
});
