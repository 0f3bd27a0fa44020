import { describe, expect, it } from 'vitest';
import { createServer, StartupError, Tool, View, type Provider } from '@mcp-fw/core';

const PAGE = '<!doctype html><html><body><p>board</p></body></html>';

function startupMessage(providers: Provider[]): string {
  let error: unknown;
  try {
    createServer({ name: 'views', version: '1.0.0', providers });
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(StartupError);
  expect((error as StartupError).code).toBe('INVALID_VIEW');
  return (error as Error).message;
}

describe('bad views are refused at startup, naming the member and the fix', () => {
  it('a view that is not valid HTML names the view and says to return a whole document', () => {
    class Board {
      @View('ui://orders/board')
      board() {
        return 'just some text';
      }
    }
    const message = startupMessage([Board]);
    expect(message).toContain('Board.board');
    expect(message).toContain('ui://orders/board is not an HTML document');
    expect(message).toContain('<!doctype html>');
  });

  it('a view declared with a URI that is not ui:// is refused', () => {
    class Board {
      @View('https://example.com/board')
      board() {
        return PAGE;
      }
    }
    expect(startupMessage([Board])).toMatch(/Board\.board: @View needs a ui:\/\/ URI.*Fix/);
  });

  it('a tool naming a view that does not exist names both the tool and the URI', () => {
    class Orders {
      @View('ui://orders/board')
      board() {
        return PAGE;
      }
      @Tool({ description: 'Lists orders', ui: 'ui://orders/bord' })
      list() {
        return 'none';
      }
    }
    const message = startupMessage([Orders]);
    expect(message).toContain('Orders.list: tool list names the view ui://orders/bord');
    expect(message).toContain('Views declared: ui://orders/board');
    expect(message).toContain("Fix: add @View('ui://orders/bord')");
  });

  it('a ui:// URI naming no view (a plain resource) says to declare it with @View', () => {
    class Orders {
      @Tool({ description: 'Lists orders', ui: 'ui://orders/board' })
      list() {
        return 'none';
      }
    }
    expect(startupMessage([Orders])).toContain('No view is declared');
  });

  it('a tool ui that is not a ui:// URI is refused', () => {
    class Orders {
      @Tool({ description: 'Lists orders', ui: 'orders/board' })
      list() {
        return 'none';
      }
    }
    expect(startupMessage([Orders])).toMatch(
      /Orders\.list: ui must name a view by its ui:\/\/ URI/,
    );
  });

  it('a CSP domain that is not an origin names the field, the entry and the fix', () => {
    class Board {
      @View('ui://orders/board', { csp: { connectDomains: ['https://api.example.com/v1/'] } })
      board() {
        return PAGE;
      }
    }
    const message = startupMessage([Board]);
    expect(message).toContain(
      'Board.board: csp.connectDomains entry "https://api.example.com/v1/"',
    );
    expect(message).toContain('is not an origin');
    expect(message).toContain('no path');
  });

  it('an unknown csp field or permission is refused', () => {
    class Board {
      @View('ui://orders/board', { csp: { scriptDomains: ['https://cdn.example.com'] } as never })
      board() {
        return PAGE;
      }
    }
    expect(startupMessage([Board])).toContain('csp.scriptDomains is not an MCP Apps CSP field');
    class Cam {
      @View('ui://cam', { permissions: { usb: {} } as never })
      cam() {
        return PAGE;
      }
    }
    expect(startupMessage([Cam])).toContain('permissions.usb is not an MCP Apps permission');
  });

  it('a view larger than its limit names the size, the limit and maxBytes', () => {
    class Board {
      @View('ui://orders/board', { maxBytes: 100 })
      board() {
        return `<!doctype html><html><body>${'x'.repeat(200)}</body></html>`;
      }
    }
    const message = startupMessage([Board]);
    expect(message).toMatch(/ui:\/\/orders\/board is \d+ bytes, over its limit of 100/);
    expect(message).toContain('raise maxBytes');
  });

  it('a sound view and tools naming it start, with wildcard origins accepted', () => {
    class Orders {
      @View('ui://orders/board', {
        csp: { connectDomains: ['https://api.example.com', 'wss://*.example.com:8443'] },
        prefersBorder: true,
      })
      board() {
        return PAGE;
      }
      @Tool({ description: 'Lists orders', ui: 'ui://orders/board' })
      list() {
        return 'none';
      }
    }
    expect(() => createServer({ name: 'v', version: '1', providers: [Orders] })).not.toThrow();
  });
});
