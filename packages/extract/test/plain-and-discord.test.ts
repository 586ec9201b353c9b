import { afterAll, describe, expect, it } from 'vitest';
import { isAppError } from '@brain/errors';
import { createExtractor, extractDiscordMessage, neutralizeMentions } from '../src/index.ts';
import { failure } from './helpers/extractor.ts';

// Text and markdown never start a sandbox process: this extractor stays cold throughout.
const extractor = createExtractor({ size: 1 });
afterAll(() => extractor.close());

describe('markdown and plain text pass through', () => {
  const markdown = '\ufeff# Runbook\r\n\r\nRestart with `brain start`.\r\n\r\n## Links\r\n\r\n- [Docs](https://docs.example.com/x) and [relative](../y.md)\r\n- <https://auto.example.com/>\r\n- bare https://bare.example.com/page.\r\n';

  it('keeps markdown as written, normalising newlines and the BOM only', async () => {
    const doc = await extractor.extract({ bytes: Buffer.from(markdown), mimeType: 'text/markdown', url: 'https://git.example.com/repo/docs/runbook.md' });
    expect(doc.kind).toBe('markdown');
    expect(doc.title).toBe('Runbook');
    expect(doc.text).toBe(markdown.replace('\ufeff', '').replace(/\r\n/g, '\n').trim());
    expect(doc.links).toEqual([
      'https://docs.example.com/x',
      'https://git.example.com/repo/y.md',
      'https://auto.example.com/',
      'https://bare.example.com/page',
    ]);
    expect(extractor.counters.started).toBe(0);
  });

  it('a .md upload sent as text/plain is markdown; plain text has no title', async () => {
    const asMd = await extractor.extract({ bytes: Buffer.from('# Notes\n\nx'), mimeType: 'text/plain', fileName: 'notes.MD' });
    expect([asMd.kind, asMd.title]).toEqual(['markdown', 'Notes']);
    const plain = await extractor.extract({ bytes: Buffer.from('# not a heading in plain text\nline two'), mimeType: 'text/plain; charset=utf-8' });
    expect([plain.kind, plain.title, plain.text]).toEqual(['text', null, '# not a heading in plain text\nline two']);
  });

  it('decodes a declared charset and strips control characters', async () => {
    const doc = await extractor.extract({ bytes: Buffer.from('caf\xe9\u0000\u0001 ok', 'latin1'), mimeType: 'text/plain; charset=ISO-8859-1' });
    expect(doc.text).toBe('café ok');
  });

  it('drops private-use characters (a symbol font’s bullet, an icon), which show as boxes anywhere else', async () => {
    const doc = await extractor.extract({ bytes: Buffer.from('\uf0b7 First step\n\u{F0001}Second step \ue900'), mimeType: 'text/plain' });
    expect(doc.text).toBe('First step\nSecond step');
  });

  it('refuses empty text and unsupported types with their codes', async () => {
    expect((await failure(extractor, { bytes: Buffer.from(' \n\t '), mimeType: 'text/plain' })).code).toBe('EXTRACT_EMPTY');
    const unsupported = await failure(extractor, { bytes: Buffer.from('PK'), mimeType: 'application/zip' });
    expect(unsupported.code).toBe('EXTRACT_UNSUPPORTED_TYPE');
    expect(unsupported.userMessage).toContain('application/zip');
  });
});

describe('Discord messages', () => {
  it('neutralises every mention form so a later answer can never ping', () => {
    const text = neutralizeMentions('hi <@123456789012345678> <@!42> <@&987654321098765432> in <#555> @everyone @here </deploy:999> <:party:123>', {
      users: { '123456789012345678': 'ada' },
      roles: { '987654321098765432': 'Moderators' },
      channels: { '555': 'general' },
    });
    expect(text).toBe('hi @ada @unknown-user @Moderators in #general @\u200beveryone @\u200bhere /deploy :party:');
    expect(text).not.toMatch(/<@|<#|@everyone|@here/);
  });

  it('a user or role named "everyone" is neutralised too', () => {
    expect(neutralizeMentions('<@1> <@&2>', { users: { '1': 'everyone' }, roles: { '2': 'here' } })).toBe('@\u200beveryone @\u200bhere');
  });

  it('turns a message into a markdown document with its links', () => {
    const doc = extractDiscordMessage({
      content: 'Deploy notes for <@&1>: see https://wiki.example.com/deploy. @everyone please read',
      authorName: 'ada',
      channelName: 'ops',
      mentions: { roles: { '1': 'oncall' } },
      embeds: [{ title: 'Deploy guide', description: 'How we ship', url: 'https://wiki.example.com/deploy-guide' }],
    });
    expect(doc).toEqual({
      kind: 'markdown',
      title: 'Message from ada in #ops',
      byline: 'ada',
      text: 'Deploy notes for @oncall: see https://wiki.example.com/deploy. @\u200beveryone please read\n\n## Deploy guide\n\nHow we ship',
      links: ['https://wiki.example.com/deploy', 'https://wiki.example.com/deploy-guide'],
      truncated: false,
    });
  });

  it('a message with no text is EXTRACT_EMPTY', () => {
    let error: unknown;
    try {
      extractDiscordMessage({ content: '   ' });
    } catch (e) {
      error = e;
    }
    expect(isAppError(error, 'EXTRACT_EMPTY')).toBe(true);
  });
});
