/**
 * The HTML explorer in a real browser: Debian's Chromium, driven by
 * Playwright (playwright-core, no downloaded browser), opens the page of a
 * fresh-cycle counterexample from a file:// URL, steps to the violation with
 * the keyboard and reads what the panels show, and checks the drawings: the
 * sequence diagram's lanes and messages, its highlight following the step
 * (keys, a click on a message), the statechart's lit states and the store's
 * before/after diff.
 *
 * Needs `/usr/bin/chromium` (`apt-get install -y chromium`); without it this
 * test fails, naming the command, rather than skipping: a skipped browser
 * test would let a broken page land.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { showCommand } from '../../sim/cli/show-command.ts';
import { statesOf } from './states.ts';
import { phantomFacts, phantomSample, removeDir, tempDir, type PhantomFacts, type Sample } from './test-traces.ts';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

const dir = tempDir('render-browser-');
let sample: Sample;
let facts: PhantomFacts;
let pageUrl: string;
let context: BrowserContext | undefined;
let page: Page;
/** Why the browser could not be started; every test fails with it (a skip would hide a broken page). */
let missing: string | null = null;
const pageErrors: string[] = [];
const requests: string[] = [];

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    missing = `${CHROMIUM} is missing: the browser test needs Debian's Chromium (as root: apt-get update && apt-get install -y chromium)`;
    return;
  }
  sample = await phantomSample(dir);
  facts = phantomFacts(sample);
  const file = join(dir, 'trace.html');
  const err: string[] = [];
  const code = await showCommand(sample.path, { format: 'html', out: file }, { out: () => undefined, err: (l) => err.push(l), tty: false });
  expect(code).toBe(0);
  expect(readFileSync(file, 'utf8')).toContain('<!doctype html>');
  pageUrl = pathToFileURL(file).href;
  // A fresh profile in the test's own directory: nothing from an earlier run or the user's browser.
  context = await chromium.launchPersistentContext(join(dir, 'profile'), { executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') pageErrors.push(m.text());
  });
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(pageUrl);
});

afterAll(async () => {
  await context?.close();
  removeDir(dir);
});

/** Fails the calling test when there is no browser to drive. */
function needBrowser(): void {
  if (missing !== null) throw new Error(missing);
}

/** The cells of the row keyed `key` in a panel, as the page shows them. */
async function row(panel: string, key: string): Promise<string[]> {
  return page.locator(`#panel-${panel} tr[data-key="${key}"] td`).allInnerTexts();
}

async function currentStep(): Promise<number> {
  return Number(await page.locator('body').getAttribute('data-step'));
}

describe('the HTML explorer in Chromium', () => {
  it('opens on the initial world with an empty store', async () => {
    needBrowser();
    expect(await currentStep()).toBe(0);
    await expect.poll(() => page.locator('#step-label').innerText()).toMatch(/^step 0 of \d+: initial world$/);
    expect(await page.locator('#panel-records').innerText()).toContain('(none)');
    expect(await page.locator('#panel-broker').innerText()).toContain('(none)');
    expect(await page.locator('#panel-engines tbody tr').count()).toBeGreaterThan(0);
  });

  it('steps with ArrowRight/ArrowLeft and j/k', async () => {
    needBrowser();
    await page.keyboard.press('ArrowRight');
    expect(await currentStep()).toBe(1);
    await page.keyboard.press('j');
    expect(await currentStep()).toBe(2);
    await page.keyboard.press('k');
    await page.keyboard.press('ArrowLeft');
    expect(await currentStep()).toBe(0);
    await page.keyboard.press('ArrowLeft');
    expect(await currentStep()).toBe(0);
  });

  it('shows the lost reply: the broker holds the first body while the record still retries it', async () => {
    needBrowser();
    const lost = sample.trace.steps.find((s) => s.label.includes('lost-reply'));
    expect(lost, 'a lost-reply step in the counterexample').toBeDefined();
    await page.keyboard.press('Home');
    for (let i = 0; i < (lost?.n ?? 0); i++) await page.keyboard.press('ArrowRight');
    expect(await page.locator('#step-label').innerText()).toContain(`step ${lost?.n} of ${sample.trace.steps.length}: ${lost?.label}`);
    expect(await row('broker', facts.subject)).toEqual([facts.subject, facts.held, expect.stringContaining(`${facts.subject}#`)]);
    expect((await row('records', facts.subject)).slice(0, 3)).toEqual([facts.subject, 'READY', facts.held]);
    expect(await page.locator('#panel-broker tr.changed').count()).toBe(1);
  });

  it('steps to the violation with the keyboard and shows the phantom delivery', async () => {
    needBrowser();
    const vStep = sample.trace.header.violation?.step ?? -1;
    await page.keyboard.press('Home');
    for (let i = 0; i < vStep; i++) await page.keyboard.press('ArrowRight');
    expect(await currentStep()).toBe(vStep);
    expect(await page.locator('#step-label').innerText()).toContain(`step ${vStep} of ${sample.trace.steps.length}`);
    // The step list marks the current step, and it is the violating one.
    const current = page.locator('#steps li.current');
    expect(await current.getAttribute('data-step')).toBe(String(vStep));
    expect(await current.getAttribute('class')).toContain('violation');
    // The banner names the property and is lit at this step.
    const banner = page.locator('#violation');
    expect(await banner.innerText()).toContain('no-phantom-delivery');
    expect(await banner.innerText()).toContain(sample.violation.detail);
    expect(await banner.getAttribute('class')).toContain('here');
    // The record reports the second body delivered; the broker holds the first.
    const record = await row('records', facts.subject);
    expect(record.slice(0, 3)).toEqual([facts.subject, 'DELIVERED', facts.delivered]);
    expect((await row('broker', facts.subject))[1]).toBe(facts.held);
    expect(facts.held).not.toBe(facts.delivered);
    expect(await page.locator('#panel-files').innerText()).toContain('results/ (live)');
    expect(await page.locator('#panel-engines tbody tr').count()).toBeGreaterThan(0);
  });

  it('moves with the buttons, Home/End, and reopens at the step in the URL', async () => {
    needBrowser();
    const last = sample.trace.steps.length;
    await page.click('#prev');
    expect(await currentStep()).toBe(last - 1);
    expect(await page.locator('#violation').getAttribute('class')).not.toContain('here');
    await page.keyboard.press('Home');
    expect(await currentStep()).toBe(0);
    await page.keyboard.press('End');
    expect(await currentStep()).toBe(last);
    await page.click('#first');
    await page.click('#to-violation');
    expect(await currentStep()).toBe(sample.trace.header.violation?.step);
    await page.goto(`${pageUrl}#step=3`);
    await page.reload();
    expect(await currentStep()).toBe(3);
  });

  it('draws the trace as a sequence diagram: a lane per participant, a message per step, faults marked', async () => {
    needBrowser();
    const lanes = await page.locator('#sequence g.lane').evaluateAll((gs) => gs.map((g) => g.getAttribute('data-lane')));
    // The producer first, the engines of the trace, then the store and the broker.
    expect(lanes[0]).toBe('Producer');
    expect(lanes.slice(-2)).toEqual(['Outbox', 'Broker']);
    expect(lanes.slice(1, -2).length).toBeGreaterThan(0);
    expect(lanes.slice(1, -2).every((l) => l !== null && /^e\d+$/.test(l))).toBe(true);
    expect(await page.locator('#sequence g.msg').count()).toBe(sample.trace.steps.length + 1);
    const lost = sample.trace.steps.find((s) => s.label.includes('lost-reply'))?.n ?? -1;
    const lostMsg = page.locator(`#sequence g.msg[data-step="${lost}"]`);
    expect(await lostMsg.getAttribute('class')).toContain('fault');
    expect(await lostMsg.locator('line.broken').count()).toBe(1);
    expect(await lostMsg.locator('rect.note.fault').count()).toBe(1);
    const vStep = sample.trace.header.violation?.step ?? -1;
    expect(await page.locator(`#sequence g.msg[data-step="${vStep}"] text.note-text`).last().textContent()).toContain('VIOLATION no-phantom-delivery');
    // The lifecycle statechart: a box per state of the machine.
    expect(await page.locator('#statechart g.state').evaluateAll((gs) => gs.map((g) => g.getAttribute('data-state')))).toEqual([
      'idle', 'claiming', 'preSend', 'posting', 'completing', 'releasing', 'disposing',
    ]);
    expect(await page.locator('#statechart g.edge').count()).toBeGreaterThan(7);
  });

  it('highlights the current message and lights the engines\' state as the keyboard steps', async () => {
    needBrowser();
    const current = async () => page.locator('#sequence g.msg.current').evaluateAll((gs) => gs.map((g) => g.getAttribute('data-step')));
    const lit = async () => page.locator('#statechart g.state.lit').evaluateAll((gs) => gs.map((g) => [g.getAttribute('data-state'), g.querySelector('text.who')?.textContent]));
    await page.keyboard.press('Home');
    expect(await current()).toEqual(['0']);
    // Every engine starts idle: one lit box naming them all.
    const engines = (statesOf(sample.trace)[0] as { engines: { pid: number }[] }).engines.map((p) => `e${p.pid}`);
    expect(await lit()).toEqual([['idle', engines.join(' ')]]);
    const scanStep = sample.trace.steps.find((s) => /^e\d+ scan /.test(s.label));
    const scan = scanStep?.n ?? -1;
    const scanner = /^(e\d+) /.exec(scanStep?.label ?? '')?.[1] ?? '';
    for (let i = 0; i < scan; i++) await page.keyboard.press('ArrowRight');
    expect(await current()).toEqual([String(scan)]);
    expect(await lit()).toContainEqual(['claiming', scanner]);
    expect(await page.locator('#statechart g.edge.taken').getAttribute('data-edge')).toBe('idle>claiming');
    // The engines table says the same state.
    expect((await row('engines', scanner))[2]).toBe('claiming');
    await page.keyboard.press('j');
    expect(await current()).toEqual([String(scan + 1)]);
    const litNow = await lit();
    const scannerNow = litNow.find(([, who]) => (who ?? '').split(' ').includes(scanner));
    expect(scannerNow?.[0]).toBe((await row('engines', scanner))[2]);
  });

  it('selects a step by clicking its message, and shows the store before and after it', async () => {
    needBrowser();
    const lost = sample.trace.steps.find((s) => s.label.includes('lost-reply'))?.n ?? -1;
    await page.locator(`#sequence g.msg[data-step="${lost}"] text.label`).click();
    expect(await currentStep()).toBe(lost);
    expect(await page.locator('#steps li.current').getAttribute('data-step')).toBe(String(lost));
    expect(await page.locator('#sequence g.msg.current').getAttribute('data-step')).toBe(String(lost));
    // The lost reply: the broker now holds the body; before the step it held nothing.
    const diff = page.locator(`#store-diff table[data-panel="broker"][data-key="${facts.subject}"]`);
    expect(await diff.locator('tr.del td').allInnerTexts()).toEqual(['before', '(absent)']);
    expect(await diff.locator('tr.add td').allInnerTexts()).toEqual(['after', facts.subject, facts.held, expect.stringContaining(`${facts.subject}#`)]);
    const vStep = sample.trace.header.violation?.step ?? -1;
    await page.locator(`#sequence g.msg[data-step="${vStep}"] text.label`).click();
    expect(await currentStep()).toBe(vStep);
    const record = page.locator(`#store-diff table[data-panel="records"][data-key="${facts.subject}"]`);
    expect((await record.locator('tr.del td').allInnerTexts()).slice(0, 3)).toEqual(['before', facts.subject, 'READY']);
    expect((await record.locator('tr.add td').allInnerTexts()).slice(0, 3)).toEqual(['after', facts.subject, 'DELIVERED']);
    expect(await record.locator('tr.add td.chg').first().innerText()).toBe('DELIVERED');
    // Back with the keyboard: the highlight follows.
    await page.keyboard.press('k');
    expect(await page.locator('#sequence g.msg.current').getAttribute('data-step')).toBe(String(vStep - 1));
    // The diagram scrolls in its own box to keep the current message in view; the page does not scroll sideways.
    await page.keyboard.press('Home');
    await page.keyboard.press('End');
    const inView = await page.evaluate(() => {
      const box = document.getElementById('sequence-scroll')?.getBoundingClientRect();
      const msg = document.querySelector('#sequence g.msg.current')?.getBoundingClientRect();
      return box !== undefined && msg !== undefined && msg.top >= box.top - 1 && msg.top < box.bottom;
    });
    expect(inView).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  });

  it('ran with no script error and fetched nothing but the page itself', () => {
    needBrowser();
    expect(pageErrors).toEqual([]);
    expect(requests.filter((u) => !u.startsWith(pageUrl))).toEqual([]);
  });
});
