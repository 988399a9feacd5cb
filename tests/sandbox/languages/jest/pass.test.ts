import { strict as assert } from 'assert';
function add(a: number, b: number): number { return a + b; }
interface Pair { x: number; y: number }
test('adds', () => { const p: Pair = { x: 2, y: 2 }; expect(add(p.x, p.y)).toBe(4); });
test('asserts', () => { assert.equal(add(1, -1), 0); });
