// The order board's script: ext-apps' App speaks the view protocol with the host (initialize,
// tool input and result, calls of the server's tools, size changes).
import { App } from '@modelcontextprotocol/ext-apps';

interface Row {
  orderId: string;
  status: string;
  destination: string;
  carrier: string;
}

const state = document.getElementById('state')!;
const table = document.getElementById('orders') as HTMLTableElement;
const events = document.getElementById('events')!;

const app = new App({ name: 'order-board', version: '0.1.0' });

app.ontoolinput = () => {
  state.textContent = 'Loading the orders…';
};

app.ontoolresult = (result) => {
  const orders = (result.structuredContent as { orders?: Row[] } | undefined)?.orders ?? [];
  const body = table.tBodies[0];
  body.replaceChildren(
    ...orders.map((order) => {
      const row = body.insertRow();
      for (const value of [order.orderId, order.status, order.destination, order.carrier])
        row.insertCell().textContent = value;
      row.className = order.status;
      row.dataset.order = order.orderId;
      row.addEventListener('click', () => void showEvents(order.orderId));
      return row;
    }),
  );
  state.textContent = `${orders.length} orders`;
  table.hidden = false;
};

/** Asks the server (through the host) for one order's events: order_events is app-only. */
async function showEvents(orderId: string): Promise<void> {
  const result = await app.callServerTool({
    name: 'order_events',
    arguments: { order_id: orderId },
  });
  const list = (result.structuredContent as { events?: { location: string; status: string }[] })
    ?.events;
  events.querySelector('h2')!.textContent = `Tracking ${orderId}`;
  events.querySelector('ol')!.replaceChildren(
    ...(list ?? []).map((e) => {
      const item = document.createElement('li');
      item.textContent = `${e.location}: ${e.status}`;
      return item;
    }),
  );
  events.hidden = false;
}

await app.connect();
