import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '@brain/testkit';
import { createChatRewriter } from '../src/follow-up/chat-rewriter.ts';
import { rewriteByRule } from '../src/follow-up/rewrite-by-rule.ts';

describe('the deterministic follow-up rewrite', () => {
  const earlier = ['How do I set the request timeout?'];

  it('carries the previous question’s topic words into a follow-up that cannot stand alone', () => {
    expect(rewriteByRule({ earlier, message: 'and what about the default?' })).toEqual({ question: 'and what about the default (request timeout)?', by: 'rule' });
    // It points back ("it"), so it depends on the thread even with words of its own.
    expect(rewriteByRule({ earlier, message: 'does it also apply to webhook deliveries?' })).toEqual({ question: 'does it also apply to webhook deliveries (request timeout)?', by: 'rule' });
    // Only what it lacks: "timeout" is already there.
    expect(rewriteByRule({ earlier, message: 'what is the maximum timeout?' })).toEqual({ question: 'what is the maximum timeout (request)?', by: 'rule' });
    // The latest question is what it continues.
    expect(rewriteByRule({ earlier: [...earlier, 'How do I rotate the signing key?'], message: 'and how often?' }).question).toBe('and how often (rotate signing key)?');
  });

  it('leaves a question that stands alone, and the first question of a thread, as written', () => {
    expect(rewriteByRule({ earlier, message: 'How do I rotate the webhook signing secret?' })).toEqual({ question: 'How do I rotate the webhook signing secret?', by: 'unchanged' });
    expect(rewriteByRule({ earlier: [], message: 'and what about the default?' })).toEqual({ question: 'and what about the default?', by: 'unchanged' });
  });
});

describe('the chat model’s follow-up rewrite', () => {
  let fake: FakeOpenAI;
  beforeAll(async () => {
    fake = await startFakeOpenAI({ apiKey: 'sk-test' });
  });
  afterAll(async () => fake.close());
  const rewriter = () => createChatRewriter({ apiKey: 'sk-test', baseUrl: fake.url, model: 'gpt-test', timeoutMs: 2_000 });

  it('sends the earlier questions and the message as data, and returns the model’s question', async () => {
    fake.setChatResponder(() => 'What is the default request timeout?');
    const out = await rewriter().rewrite({ earlier: ['How do I set the request timeout?'], message: 'and what about the default?' });
    expect(out).toEqual({ question: 'What is the default request timeout?', by: 'llm' });
    const sent = fake.chatCalls.at(-1);
    expect(sent?.temperature).toBe(0);
    const user = String(sent?.messages.at(-1)?.content);
    expect(user).toContain('1. How do I set the request timeout?');
    expect(user).toContain('Last message: and what about the default?');
    expect(String(sent?.messages[0]?.content)).toMatch(/not instructions/);
  });

  it('falls back to the rule, saying why, when the model fails or does not reply with one question', async () => {
    fake.failNext('chat', 2, { status: 500 });
    const failed = await rewriter().rewrite({ earlier: ['How do I set the request timeout?'], message: 'and what about the default?' });
    expect(failed).toMatchObject({ question: 'and what about the default (request timeout)?', by: 'rule', fallbackReason: expect.stringMatching(/^the chat model failed/) });

    fake.setChatResponder(() => 'Sure! Here is the question:\nWhat is the default request timeout?');
    const chatty = await rewriter().rewrite({ earlier: ['How do I set the request timeout?'], message: 'and what about the default?' });
    expect(chatty).toMatchObject({ by: 'rule', fallbackReason: 'the chat model did not reply with one question' });
  });
});
