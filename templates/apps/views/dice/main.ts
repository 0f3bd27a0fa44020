// The view's script: ext-apps' App receives the tool's result from the host and calls the
// server's app-only tool through it.
import { App } from '@modelcontextprotocol/ext-apps';

const FACES = ['⚀', '⚁', '⚂', '⚃', '⚄', '⚅'];
const shown = document.getElementById('dice')!;
const again = document.getElementById('again') as HTMLButtonElement;
let count = 2;

function show(result: { structuredContent?: unknown }): void {
  const dice = (result.structuredContent as { dice?: number[] } | undefined)?.dice ?? [];
  count = dice.length || count;
  shown.textContent = dice.map((d) => FACES[d - 1]).join(' ');
  again.disabled = false;
}

const app = new App({ name: 'dice-table', version: '0.1.0' });
app.ontoolresult = show;
again.addEventListener('click', async () => {
  again.disabled = true;
  show(await app.callServerTool({ name: 'reroll', arguments: { count } }));
});
await app.connect();
