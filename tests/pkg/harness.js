// Loads the package as a page would (`init()`, then the exports) and gives the tests a
// few helpers that keep big results inside the page (a 200,000-order result is 170 MB).
import init, * as dl from '../../pkg/delaylab_engine.js';

// The one figure that is not the simulation's: the wall time.
const normalise = (text) => text.replace(/"wall_ms": -?[0-9.eE+-]+/g, '"wall_ms": 0');

const firstDifference = (a, b) => {
  const x = a.split('\n');
  const y = b.split('\n');
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    if (x[i] !== y[i]) return `line ${i + 1}: package ${JSON.stringify(x[i])} vs native ${JSON.stringify(y[i])}`;
  }
  return null;
};

// Runs a scenario to its end in the package and compares its result with the native one.
window.runAndCompare = async (scenarioUrl, nativeUrl) => {
  const text = await (await fetch(scenarioUrl)).text();
  const t0 = performance.now();
  const sim = dl.Simulation.fromJson(text, { trace: false });
  sim.runToEnd();
  const ms = performance.now() - t0;
  const mine = normalise(sim.resultJson());
  sim.free();
  const theirs = normalise((await (await fetch(nativeUrl)).text()).replace(/\n$/, ''));
  return { ms, bytes: mine.length, same: mine === theirs, diff: mine === theirs ? null : firstDifference(mine, theirs) };
};

// Best of `runs` timed runs of a scenario to its end (trace off, as `delaylab run`
// without --trace); the result's counters to check it did the work.
window.timeScenario = async (scenarioUrl, runs) => {
  const text = await (await fetch(scenarioUrl)).text();
  let best = Infinity;
  let events = 0;
  for (let i = 0; i < runs; i++) {
    const sim = dl.Simulation.fromJson(text, { trace: false });
    const t0 = performance.now();
    sim.runToEnd();
    best = Math.min(best, performance.now() - t0);
    if (i === 0) {
      // Only the counters: building the 170 MB result text is not the run.
      events = sim.eventsSoFar();
    }
    sim.free();
  }
  return { best, events };
};

try {
  await init();
  window.dl = dl;
  window.dlReady = true;
} catch (e) {
  window.dlError = e.stack || String(e);
}
