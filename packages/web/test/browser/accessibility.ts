// Runs axe-core (the npm package, injected through the DevTools protocol: the page's CSP forbids
// inline scripts) on the current page and returns its serious and critical violations.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** `rule: target` for every serious or critical violation axe finds on `page`. */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run(context: Document): Promise<{ violations: AxeViolation[]; passes: unknown[] }> };
      }
    ).axe;
    interface AxeViolation {
      id: string;
      impact: string | null;
      nodes: { target: unknown[] }[];
    }
    const result = await axe.run(document);
    if (result.passes.length === 0) throw new Error('axe checked nothing on this page.');
    return result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      targets: violation.nodes.map((node) => JSON.stringify(node.target)),
    }));
  });
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) => violation.targets.map((target) => `${violation.id}: ${target}`));
}
