// The two faces register their areas from their own files, as their modules load them.
import '../console/console-area.js';
import '../dashboard/dashboard-area.js';
import { isWebPath, registerWebArea, webAreaOf, webAreas } from './web-areas.js';

describe('web areas', () => {
  it('finds the area of a URL by its path alone, the area itself, under it or with a query', () => {
    for (const url of ['/dashboard', '/dashboard/', '/dashboard?page=2', '/dashboard/orders/1?x=/y']) {
      expect(webAreaOf(url)?.path).toBe('/dashboard');
    }
    expect(webAreaOf('/console/sign-in')?.path).toBe('/console');
    expect(webAreaOf('/console?')?.path).toBe('/console');
  });

  it('does not take a longer name, an api route or a query naming an area for the area', () => {
    for (const url of [
      '/dashboardx',
      '/consoles/',
      '/dash?board/',
      '/?/dashboard',
      '/api/v1/dashboard/sessions/',
      '/',
      '',
    ]) {
      expect(webAreaOf(url)).toBeUndefined();
    }
  });

  it('gives the security headers to the areas and their assets only', () => {
    expect(isWebPath('/assets/app.css')).toBe(true);
    expect(isWebPath('/assets?v=1')).toBe(true);
    expect(isWebPath('/console/sign-in')).toBe(true);
    expect(isWebPath('/assetsx/app.css')).toBe(false);
    expect(isWebPath('/api/v1/oauth/test')).toBe(false);
  });

  it('holds the areas the faces registered, and refuses an area inside or around another', () => {
    expect(webAreas().map((area) => area.path)).toEqual(['/console', '/dashboard']);
    expect(webAreaOf('/dashboard/')?.nav.map((link) => link.href)).toContain('/dashboard/orders');
    const nav = [{ href: '/x/', label: 'X' }];
    expect(() => registerWebArea({ path: '/console/kyc', name: 'Inside', hints: {}, nav })).toThrow(
      'web area /console/kyc overlaps /console',
    );
    expect(() => registerWebArea({ path: '', name: 'Around', hints: {}, nav })).toThrow(/overlaps/);
    expect(webAreas()).toHaveLength(2);
  });
});
