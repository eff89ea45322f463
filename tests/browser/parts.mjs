// The app's deferred parts (src/app/deferred.rs: the panels in its wasm chunks) are all
// drawn: the page says so on <html data-parts="ready">. A page that does not boot the app
// (www/ pages) has none to wait for.
export async function partsReady(page) {
  await page.waitForFunction(() => !document.querySelector('script[data-wasm]')
    || document.documentElement.dataset.parts === 'ready', null, { timeout: 30_000 });
}
