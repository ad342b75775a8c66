/**
 * The pages the api serves, in navigation order. The one list: WebController answers these
 * paths, and scripts/build-web.js (which reads the compiled copy of this file) builds each
 * from web/<name>/content.html and web/<name>/main.ts into the shared layout. Adding a page
 * is adding its folder under web/ and one line here.
 */
export interface WebPage {
  /** Folder under web/, and the name of its bundle (/assets/<name>.js). */
  name: string;
  /** Path the page is served at. */
  path: string;
  /** Document title, before " · Registry Lookup". */
  title: string;
  /** Label of its link in the navigation. */
  nav: string;
}

export const WEB_PAGES: readonly WebPage[] = [
  { name: 'search', path: '/', title: 'Company search', nav: 'Search' },
  { name: 'status', path: '/status', title: 'Register status', nav: 'Status' },
  { name: 'simulator', path: '/simulator', title: 'Webhook simulator', nav: 'Simulator' },
];

/** Where the built pages are, relative to the repository root (src/ and dist/ are both one level down). */
export const WEB_OUT_DIR = 'dist/public';
