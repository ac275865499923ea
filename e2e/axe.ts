import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** axe's findings in a form that reads well in a failed assertion. */
export async function violations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.map((violation) => ({
    rule: violation.id,
    impact: violation.impact,
    nodes: violation.nodes.map((node) => node.target.join(' ')),
  }));
}

/** Opens a screen and waits until it has settled, for axe to measure. */
export async function openSettled(page: Page, path: string) {
  await page.goto(path);
  await expect(page.locator('#page-heading')).toBeVisible();
  // Fonts and lazily loaded screen parts change contrast and layout: measure the settled page.
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => document.fonts.ready);
}
