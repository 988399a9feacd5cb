// Types are stripped, not checked (tsx, as SandboxFusion runs TypeScript): this runs.
interface Point { x: number; y: number }
const p: Point = { x: 1, y: 2 };
const wrong: string = 42 as unknown as number;
enum Color { Red, Green }
console.log(p.x + p.y, wrong, Color[1]);
