import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SHUTDOWN_GRACE_SECONDS } from '@brain/config';
import { FINAL_EDIT_MS } from '@brain/discord';
import { templateDataDir } from './brain-process.ts';
import { runCli } from './run-cli.ts';

interface Service {
  type: string;
  name: string;
  buildCommand?: string;
  preDeployCommand?: string;
  startCommand: string;
  healthCheckPath?: string;
  schedule?: string;
  maxShutdownDelaySeconds?: number;
  envVars: ({ fromGroup: string } | { key: string })[];
}
interface Blueprint {
  envVarGroups: { name: string; envVars: { key: string }[] }[];
  services: Service[];
}

const blueprint = yaml.load(fs.readFileSync(fileURLToPath(new URL('../../../render.yaml', import.meta.url)), 'utf8')) as Blueprint;
const byType = (type: string) => blueprint.services.find((s) => s.type === type) as Service;

describe('render.yaml', () => {
  it('declares the web service with its health check, the worker, and the 15-minute sweep, sharing env groups', () => {
    expect(blueprint.services.map((s) => s.type).sort()).toEqual(['cron', 'web', 'worker']);
    expect(byType('web')).toMatchObject({ healthCheckPath: '/readyz', startCommand: 'npx brain start --no-worker', preDeployCommand: 'npx brain migrate' });
    expect(byType('worker').startCommand).toBe('npx brain worker');
    expect(byType('cron')).toMatchObject({ schedule: '*/15 * * * *', startCommand: 'npx brain sweep' });
    const groups = new Set(blueprint.envVarGroups.map((g) => g.name));
    for (const service of blueprint.services) {
      expect(service.buildCommand).toBe('npm ci');
      const used = service.envVars.flatMap((v) => ('fromGroup' in v ? [v.fromGroup] : []));
      expect(used.length).toBeGreaterThan(0);
      for (const group of used) expect(groups.has(group)).toBe(true);
      expect(service.envVars.some((v) => 'key' in v && v.key === 'DATABASE_URL')).toBe(true);
    }
    // The pre-deploy migration has the owner's URL of its own, so DATABASE_URL can be brain_app's.
    expect(byType('web').envVars.some((v) => 'key' in v && v.key === 'BRAIN_MIGRATE_DATABASE_URL')).toBe(true);
    // The worker auto-answers over the Gateway and checks billing itself before it does: it needs
    // the bot token and everything a billing check needs, from the same group as the web service.
    const keysOf = (service: Service) =>
      service.envVars.flatMap((v) => ('fromGroup' in v ? (blueprint.envVarGroups.find((g) => g.name === v.fromGroup)?.envVars ?? []).map((e) => e.key) : [v.key]));
    for (const key of ['DISCORD_BOT_TOKEN', 'DISCORD_APPLICATION_ID', 'PUBLIC_URL', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_PRICE_ID', 'BRAIN_COOKIE_SECRET']) {
      expect(keysOf(byType('worker')), key).toContain(key);
      expect(keysOf(byType('web')), key).toContain(key);
    }
    // The drain fits in Render's delay: answers get the grace, then the last edit of those cut
    // short, then the database closes (margin); jobs get the grace, then are released (margin).
    // The web service listens publicly, believes Render's one proxy hop, and protects /metrics.
    const webVars = blueprint.envVarGroups.find((g) => g.name === 'company-brain-web')?.envVars as { key: string; value?: string; generateValue?: boolean }[];
    expect(webVars.find((v) => v.key === 'HOST')?.value).toBe('0.0.0.0');
    expect(webVars.find((v) => v.key === 'BRAIN_TRUST_PROXY')?.value).toBe('1');
    expect(webVars.find((v) => v.key === 'BRAIN_METRICS_TOKEN')?.generateValue).toBe(true);
    const graceVar = blueprint.envVarGroups.flatMap((g) => g.envVars).find((v) => v.key === 'BRAIN_SHUTDOWN_GRACE_SECONDS') as { value?: string } | undefined;
    const grace = Number(graceVar?.value ?? DEFAULT_SHUTDOWN_GRACE_SECONDS);
    expect(byType('web').maxShutdownDelaySeconds).toBeGreaterThanOrEqual(grace + FINAL_EDIT_MS / 1000 + 10);
    expect(byType('worker').maxShutdownDelaySeconds).toBeGreaterThanOrEqual(grace + 10);
  });

  it('only uses commands and options the brain command has, and the cron command runs', { timeout: 180_000 }, async () => {
    const help = await runCli(['start', '--help'], {});
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--no-worker');
    const all = await runCli(['--help'], {});
    for (const command of ['worker', 'sweep', 'migrate', 'doctor']) expect(all.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    const dataDir = await templateDataDir('brain-sweep-');
    try {
      const sweep = await runCli(['sweep', '--json'], { BRAIN_DATA_DIR: dataDir });
      expect(sweep.code, sweep.stderr).toBe(0);
      expect(JSON.parse(sweep.stdout)).toEqual({ requeued: 0, failed: 0, refreshesQueued: 0, purged: 0, syncsQueued: 0, everyoneFlagsQueued: 0 });
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
