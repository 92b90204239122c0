// `npm run build`'s second step: the Lua scripts (src/redis/lua/*.lua) are not TypeScript, so tsc leaves
// them behind; src/redis/scripts.ts reads them beside itself, in dist/ as in src/.
import { cpSync, readdirSync, rmSync } from 'node:fs';

const from = new URL('../src/redis/lua/', import.meta.url);
const to = new URL('../dist/redis/lua/', import.meta.url);
rmSync(to, { recursive: true, force: true });
cpSync(from, to, { recursive: true });
console.log(`copied ${readdirSync(to).length} Lua scripts to dist/redis/lua/`);
