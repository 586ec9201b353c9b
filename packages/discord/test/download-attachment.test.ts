import { expect, it } from 'vitest';
import { createAttachmentDownloader } from '../src/index.ts';

it('fetches only https attachments on Discord’s CDN, through the fetcher it is given', async () => {
  const fetched: string[] = [];
  const download = createAttachmentDownloader(async (url) => {
    fetched.push(url);
    return { bytes: Buffer.from('ok'), contentType: 'text/plain' };
  });
  const options = { maxBytes: 10, signal: new AbortController().signal };
  await expect(download('https://cdn.discordapp.com/attachments/1/2/a.pdf', options)).resolves.toMatchObject({ contentType: 'text/plain' });
  for (const url of ['http://cdn.discordapp.com/a.pdf', 'https://169.254.169.254/latest/meta-data', 'https://cdn.discordapp.com.evil.test/a', 'not a url']) {
    await expect(download(url, options)).rejects.toMatchObject({ code: 'ATTACHMENT_URL_REFUSED' });
  }
  expect(fetched).toEqual(['https://cdn.discordapp.com/attachments/1/2/a.pdf']);
});
