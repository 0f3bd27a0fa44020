// The preview host's CSP (see dev-preview.test.ts for it in Chromium): the policy built from a
// view's `_meta.ui.csp`, and the field named for each blocked directive.
import { describe, expect, it } from 'vitest';
import { cspAdvice, viewPolicy } from '../src/dev/preview/csp.ts';

describe('the preview CSP', () => {
  it('builds the policy from the declared csp and closes what is not declared', () => {
    const policy = viewPolicy({ connectDomains: ['https://api.example.com'] });
    expect(policy).toContain("connect-src 'self' https://api.example.com");
    expect(policy).toContain("frame-src 'none'");
    expect(policy).toContain("default-src 'none'");
  });

  it('names the csp field that allows each blocked directive', () => {
    expect(cspAdvice('connect-src', 'https://x.example/a?b').field).toBe('connectDomains');
    expect(cspAdvice('connect-src', 'https://x.example/a?b').add).toBe('https://x.example');
    for (const d of ['img-src', 'script-src-elem', 'style-src', 'font-src'])
      expect(cspAdvice(d, 'https://cdn.example/x').field).toBe('resourceDomains');
    expect(cspAdvice('frame-src', 'https://f.example/').field).toBe('frameDomains');
    expect(cspAdvice('base-uri', 'https://b.example/').field).toBe('baseUriDomains');
    expect(cspAdvice('script-src', 'eval').field).toBe('');
  });
});
