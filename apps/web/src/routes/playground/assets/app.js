// The playground page: renders the channel as Discord would and sends what you type to the server,
// which signs it as an interaction. No framework, no build step, nothing from a CDN.

const list = document.getElementById('messages');
const form = document.getElementById('composer');
const input = document.getElementById('input');
const suggestions = document.getElementById('suggestions');
const statusLine = document.getElementById('status-line');
const connection = document.getElementById('connection');
const channelLinks = document.getElementById('channels');
const personaSelect = document.getElementById('persona');
const chatTitle = document.querySelector('.chat-title');
const topic = document.querySelector('.topic');

const EPHEMERAL = 64;
const RESPONSE_NAMES = { 1: 'pong', 4: 'reply', 5: 'deferred: “thinking…”', 6: 'deferred update', 7: 'update', 8: 'autocomplete' };
const messages = new Map();
let commands = [];
let selected = 0;
let choices = [];
// Which channel of the pretend server is shown, and who you are: #staff is for moderators only.
let view = { channelId: '100000000000000002', persona: 'moderator' };
let channels = [];
let serverId = '';

// ---------------------------------------------------------------------------------------------
// Discord markdown, the subset the bot uses. Everything is HTML-escaped first; links are http(s).

function escapeHtml(text) {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

function safeHref(url) {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
  } catch {
    return null;
  }
}

// A jump link into the pretend server opens that message here, as Discord opens it in the app.
function jumpTarget(href) {
  const m = /^https:\/\/discord\.com\/channels\/(\d+)\/(\d+)\/(\d+)$/.exec(href);
  if (!m || m[1] !== serverId || !channels.some((c) => c.id === m[2])) return null;
  return { channelId: m[2], messageId: m[3] };
}

function link(label, url) {
  const href = safeHref(url);
  if (!href) return label;
  const jump = jumpTarget(href);
  if (jump) return `<a href="${escapeHtml(href)}" class="jump" data-jump-channel="${jump.channelId}" data-jump-message="${jump.messageId}">${label}</a>`;
  return `<a href="${escapeHtml(href)}" target="_blank" rel="noopener noreferrer">${label}</a>`;
}

function timestamp(seconds, style) {
  const date = new Date(Number(seconds) * 1000);
  const options = style === 'D' ? { dateStyle: 'long' } : style === 'd' ? { dateStyle: 'short' } : { dateStyle: 'long', timeStyle: 'short' };
  return `<time datetime="${date.toISOString()}">${escapeHtml(date.toLocaleString(undefined, options))}</time>`;
}

function inline(raw) {
  const held = [];
  const hold = (html) => `\u0000${held.push(html) - 1}\u0000`;
  let text = raw
    .replace(/\\([\\`*_~|[\]()<>#@:.-])/g, (_, c) => hold(escapeHtml(c)))
    .replace(/`([^`\n]+)`/g, (_, code) => hold(`<code>${escapeHtml(code)}</code>`))
    .replace(/<t:(\d{1,12})(?::([tTdDfFR]))?>/g, (_, s, style) => hold(timestamp(s, style)))
    .replace(/\[([^\]\n]+)\]\((https?:\/\/[^)\s]+)\)/g, (_, label, url) => hold(link(inlineStyles(escapeHtml(label)), url)))
    .replace(/<(https?:\/\/[^>\s]+)>/g, (_, url) => hold(link(escapeHtml(url), url)))
    .replace(/https?:\/\/[^\s<>()]+[^\s<>().,;:!?'"]/g, (url) => hold(link(escapeHtml(url), url)));
  text = inlineStyles(escapeHtml(text));
  return text.replace(/\u0000(\d+)\u0000/g, (_, i) => held[Number(i)]);
}

function inlineStyles(html) {
  return html
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/__([^_]+)__/g, '<u>$1</u>')
    .replace(/~~([^~]+)~~/g, '<s>$1</s>')
    .replace(/(^|[^\w*])\*([^*\n]+)\*(?!\w)/g, '$1<em>$2</em>')
    .replace(/(^|[^\w])_([^_\n]+)_(?!\w)/g, '$1<em>$2</em>');
}

function markdown(text) {
  const lines = (text ?? '').split('\n');
  const out = [];
  let quote = [];
  const flush = () => {
    if (quote.length) out.push(`<blockquote>${quote.join('<br>')}</blockquote>`);
    quote = [];
  };
  for (const line of lines) {
    if (/^>\s?/.test(line)) quote.push(inline(line.replace(/^>\s?/, '')));
    else {
      flush();
      out.push(inline(line));
    }
  }
  flush();
  return out.join('\n').replace(/<\/blockquote>\n/g, '</blockquote>');
}

// ---------------------------------------------------------------------------------------------
// Rendering messages.

function el(tag, className, html) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (html !== undefined) node.innerHTML = html;
  return node;
}

function timeOf(iso) {
  return new Date(iso).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
}

function renderEmbed(embed) {
  const box = el('div', 'embed');
  if (typeof embed.color === 'number') box.style.borderLeftColor = `#${embed.color.toString(16).padStart(6, '0')}`;
  if (embed.title) box.append(el('div', 'embed-title', embed.url ? link(inline(embed.title), embed.url) : inline(embed.title)));
  if (embed.description) box.append(el('div', 'embed-description', markdown(embed.description)));
  if (embed.fields?.length) {
    const fields = el('div', 'embed-fields');
    for (const field of embed.fields) {
      const f = el('div', 'embed-field');
      f.append(el('div', 'embed-field-name', inline(field.name)), el('div', 'embed-field-value', markdown(field.value)));
      fields.append(f);
    }
    box.append(fields);
  }
  if (embed.footer?.text) box.append(el('div', 'embed-footer', escapeHtml(embed.footer.text)));
  return box;
}

function renderComponents(message) {
  const box = el('div', 'components');
  for (const row of message.components ?? []) {
    for (const c of row.components ?? []) {
      if (c.type !== 2) continue;
      const style = { 1: 'primary', 3: 'success' }[c.style] ?? '';
      const button = el('button', `button ${style}`.trim());
      button.type = 'button';
      button.dataset.customId = c.custom_id;
      button.textContent = `${c.emoji?.name ? `${c.emoji.name} ` : ''}${c.label ?? ''}`.trim();
      button.disabled = Boolean(c.disabled);
      button.addEventListener('click', () => press(message.id, c.custom_id, button));
      box.append(button);
    }
  }
  return box.children.length ? box : null;
}

function render(message) {
  const item = el('li', `message${message.ephemeral ? ' ephemeral' : ''}`);
  item.id = `m-${message.id}`;
  item.dataset.state = message.state;
  item.dataset.author = message.author;
  const bot = message.author === 'bot';
  if (bot && message.invocation) {
    item.append(el('div', 'invocation', `<b>You</b> used <code>${escapeHtml(message.invocation)}</code>`));
  }
  const member = message.author === 'member';
  const name = member ? (message.authorName ?? 'Member') : 'You';
  item.append(el('div', `avatar ${bot ? 'bot' : member ? `member m${name.length % 5}` : 'you'}`, bot ? 'CB' : escapeHtml(name.slice(0, 1))));
  const body = el('div', 'body');
  const pin = message.pinned ? ' <span class="pin" title="Pinned">📌 pinned</span>' : '';
  body.append(
    el(
      'div',
      'meta',
      bot
        ? `<span class="author bot-name">Company Brain</span> <span class="app-tag">APP</span> <span class="time">${timeOf(message.createdAt)}</span>`
        : `<span class="author">${escapeHtml(name)}</span> <span class="time">${timeOf(message.createdAt)}</span>${pin}`,
    ),
  );
  if (message.state === 'thinking') {
    body.append(el('div', 'thinking', 'Company Brain is thinking<span class="dots" aria-hidden="true"><i></i><i></i><i></i></span>'));
  } else {
    if (message.content) {
      const content = el('div', 'content', markdown(message.content));
      if (message.editedAt) content.append(el('span', 'edited', '(edited)'));
      body.append(content);
    }
    for (const embed of message.embeds ?? []) body.append(renderEmbed(embed));
    const components = renderComponents(message);
    if (components) body.append(components);
    const thread = message.startsThread ? channels.find((c) => c.id === message.startsThread) : undefined;
    if (thread) {
      const open = el('button', 'thread-card', `🧵 <b>${escapeHtml(thread.name)}</b> <span>${countIn(thread.id)} messages ›</span>`);
      open.type = 'button';
      open.addEventListener('click', () => changeView({ channelId: thread.id }));
      body.append(open);
    }
  }
  if (message.reactions?.length) body.append(el('div', 'reactions', message.reactions.map((r) => `<span class="reaction">${escapeHtml(r)} 1</span>`).join('')));
  item.append(body);
  if (message.ephemeral) {
    const note = el('div', 'ephemeral-note', '👁 Only you can see this · ');
    const dismiss = el('button', '', 'Dismiss message');
    dismiss.type = 'button';
    dismiss.addEventListener('click', () => item.remove());
    note.append(dismiss);
    item.append(note);
  }
  if (!bot) {
    const actions = el('div', 'message-actions');
    const save = el('button', '', 'Apps ▸ Save to brain');
    save.type = 'button';
    save.title = 'The “Save to brain” message command';
    save.addEventListener('click', () => call('/playground/save-message', { messageId: message.id }));
    actions.append(save);
    const inThread = channels.find((c) => c.id === message.channelId)?.type === 11;
    if (inThread || message.startsThread) {
      const saveThread = el('button', '', 'Apps ▸ Save thread to brain');
      saveThread.type = 'button';
      saveThread.title = 'The “Save thread to brain” message command: the whole thread as one source';
      saveThread.addEventListener('click', () => call('/playground/save-thread', { messageId: message.id }));
      actions.append(saveThread);
    }
    if (inThread) {
      const markSolved = el('button', '', 'Apps ▸ Mark solved');
      markSolved.type = 'button';
      markSolved.title = 'The “Mark solved” message command: the thread becomes a solved source, preferred in answers';
      markSolved.addEventListener('click', () => call('/playground/mark-solved', { messageId: message.id }));
      actions.append(markSolved);
    }
    item.append(actions);
  }
  return item;
}

function countIn(channelId) {
  let n = 0;
  for (const m of messages.values()) if (m.channelId === channelId && m.author !== 'bot') n += 1;
  return n;
}

function upsert(message) {
  messages.set(message.id, message);
  if (message.channelId && message.channelId !== view.channelId) return;
  const nearBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 80;
  messages.set(message.id, message);
  const node = render(message);
  const existing = document.getElementById(`m-${message.id}`);
  if (existing) existing.replaceWith(node);
  else list.append(node);
  if (nearBottom || !existing) list.scrollTop = list.scrollHeight;
}

function localError(text) {
  const item = el('li', 'message ephemeral local-error');
  item.append(el('div', 'avatar bot', 'CB'));
  const body = el('div', 'body');
  body.append(el('div', 'meta', '<span class="author bot-name">Company Brain</span> <span class="app-tag">APP</span>'), el('div', 'content', escapeHtml(text)));
  item.append(body, el('div', 'ephemeral-note', '👁 Only you can see this'));
  list.append(item);
  list.scrollTop = list.scrollHeight;
}

// ---------------------------------------------------------------------------------------------
// Talking to the server.

async function call(path, payload) {
  const res = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) });
  const body = await res.json().catch(() => ({}));
  if (!res.ok) {
    localError(body.message ?? `The server answered ${res.status}.`);
    return undefined;
  }
  if (typeof body.status === 'number') {
    const kind = RESPONSE_NAMES[body.responseType] ?? 'refused';
    statusLine.textContent = `signed interaction → POST /interactions → ${body.status} (${kind}) in ${body.ackMs} ms`;
  }
  return body;
}

async function press(messageId, customId, button) {
  button.classList.add('pressed');
  await call('/playground/press', { messageId, customId });
}

// ---------------------------------------------------------------------------------------------
// The composer: command suggestions and autocomplete, like Discord's command picker.

function showSuggestions(items) {
  choices = items;
  selected = 0;
  suggestions.replaceChildren(
    ...items.map((item, i) => {
      const row = el('div', 'suggestion');
      row.setAttribute('role', 'option');
      row.setAttribute('aria-selected', String(i === selected));
      row.append(el('span', 'name', escapeHtml(item.label)));
      if (item.options) row.append(el('span', 'options', escapeHtml(item.options)));
      if (item.description) row.append(el('span', 'description', escapeHtml(item.description)));
      row.addEventListener('mousedown', (event) => {
        event.preventDefault();
        choose(i);
      });
      return row;
    }),
  );
  suggestions.hidden = items.length === 0;
}

function highlight(index) {
  selected = (index + choices.length) % choices.length;
  [...suggestions.children].forEach((row, i) => row.setAttribute('aria-selected', String(i === selected)));
}

function choose(index) {
  const item = choices[index];
  if (!item) return;
  input.value = item.insert;
  showSuggestions([]);
  input.focus();
}

let autocompleteTimer;
function updateSuggestions() {
  const value = input.value;
  const slashCommands = commands.filter((c) => c.type === 1);
  const name = /^\/(\S*)$/.exec(value);
  if (name) {
    showSuggestions(
      slashCommands
        .filter((c) => c.name.startsWith(name[1].toLowerCase()))
        .map((c) => ({
          label: `/${c.name}`,
          options: c.options.map((o) => (o.required ? o.name : `[${o.name}]`)).join(' '),
          description: c.description,
          insert: `/${c.name} ${c.options.find((o) => o.required) ? `${c.options.find((o) => o.required).name}: ` : ''}`,
        })),
    );
    return;
  }
  clearTimeout(autocompleteTimer);
  if (/^\/forget\b.*source:\s*[^:]*$/i.test(value)) {
    autocompleteTimer = setTimeout(async () => {
      const result = await call('/playground/autocomplete', { text: value });
      const typedPrefix = value.replace(/source:\s*[^:]*$/i, 'source: ');
      showSuggestions((result?.choices ?? []).map((c) => ({ label: c.name, description: '', insert: `${typedPrefix}${c.value}` })));
    }, 150);
    return;
  }
  showSuggestions([]);
}

input.addEventListener('input', updateSuggestions);
input.addEventListener('keydown', (event) => {
  if (suggestions.hidden) return;
  if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
    event.preventDefault();
    highlight(selected + (event.key === 'ArrowDown' ? 1 : -1));
  } else if (event.key === 'Tab' || (event.key === 'Enter' && choices.length > 0 && input.value !== choices[selected]?.insert)) {
    event.preventDefault();
    choose(selected);
  } else if (event.key === 'Escape') {
    showSuggestions([]);
  }
});

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const text = input.value.trim();
  if (!text) return;
  input.value = '';
  showSuggestions([]);
  const result = await call('/playground/send', { text });
  // Typed in a forum: a new post. Open it, as Discord does, where the bot answers it.
  if (result?.threadId) {
    const state = await (await fetch('/playground/state')).json();
    channels = state.channels ?? channels;
    view = state.view ?? view;
    buildSidebar();
    showChannel();
  }
});

// ---------------------------------------------------------------------------------------------
// Start: the channel so far, then live updates.

function channelLink(channel, nested) {
  const a = el('a', `channel${nested ? ' nested' : ''}`);
  a.href = '#';
  a.dataset.channel = channel.id;
  const icon = channel.type === 15 ? '💬' : channel.type === 11 ? '↳' : '#';
  const tags = (channel.appliedTags ?? []).map((id) => channels.find((c) => c.id === channel.parentId)?.tags?.find((t) => t.id === id)?.name).filter(Boolean);
  a.innerHTML = `<span class="hash">${icon}</span><span class="channel-name">${escapeHtml(channel.name)}${channel.staffOnly ? ' 🔒' : ''}</span>${tags.includes('solved') ? '<span class="tag solved">solved</span>' : ''}`;
  if (channel.staffOnly) a.title = 'Moderators only';
  return a;
}

function buildSidebar() {
  if (channels.length === 0) return;
  const items = [];
  const top = channels.filter((c) => c.parentId === null);
  for (const group of [{ label: 'Text channels', type: 0 }, { label: 'Forums', type: 15 }]) {
    const inGroup = top.filter((c) => c.type === group.type);
    if (!inGroup.length) continue;
    items.push(el('div', 'channel-group', group.label));
    for (const channel of inGroup) {
      items.push(channelLink(channel, false));
      for (const child of channels.filter((c) => c.parentId === channel.id)) items.push(channelLink(child, true));
    }
  }
  channelLinks.replaceChildren(...items);
  document.querySelector('.sidebar > .channel-group')?.remove();
}

function renderForum(forum) {
  const posts = channels.filter((c) => c.parentId === forum.id);
  const cards = posts.map((post) => {
    const card = el('li', 'forum-post');
    const tags = (post.appliedTags ?? []).map((id) => forum.tags?.find((t) => t.id === id)?.name).filter(Boolean);
    const first = [...messages.values()].find((m) => m.id === post.id);
    card.innerHTML = `<div class="forum-title">${escapeHtml(post.name)}</div><div class="forum-tags">${tags.map((t) => `<span class="tag${t === 'solved' ? ' solved' : ''}">${escapeHtml(t)}</span>`).join('')}</div><div class="forum-preview">${first ? `<b>${escapeHtml(first.authorName ?? '')}</b>: ${escapeHtml(first.content)}` : ''}</div><div class="forum-count">${countIn(post.id)} messages</div>`;
    card.tabIndex = 0;
    card.addEventListener('click', () => changeView({ channelId: post.id }));
    return card;
  });
  list.replaceChildren(el('li', 'welcome', `<h1>Welcome to #${escapeHtml(forum.name)}!</h1><p>${escapeHtml(forum.topic)} Write a new post below and the bot answers it in its thread, from what this server saved. Or open a post, then use <b>Save thread to brain</b> on a message in it, or sync the whole forum with <code>/sync add channel: #${escapeHtml(forum.name)}</code> from another channel.</p>`), ...cards);
}

function showChannel() {
  const channel = channels.find((c) => c.id === view.channelId) ?? { name: 'general', topic: '', type: 0 };
  for (const a of channelLinks.querySelectorAll('a[data-channel]')) {
    const active = a.dataset.channel === view.channelId;
    a.classList.toggle('active', active);
    if (active) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  personaSelect.value = view.persona;
  chatTitle.textContent = channel.name;
  topic.textContent = channel.topic;
  document.querySelector('.chat-header .hash').textContent = channel.type === 15 ? '💬' : channel.type === 11 ? '🧵' : '#';
  const forum = channel.type === 15;
  input.disabled = false;
  input.placeholder = forum ? `New post in #${channel.name}: the first line is its title, the rest your question` : `Message ${channel.type === 11 ? '' : '#'}${channel.name} — type / for commands`;
  input.setAttribute('aria-label', `Message #${channel.name}`);
  list.setAttribute('aria-label', `Messages in #${channel.name}`);
  if (forum) return renderForum(channel);
  const intro =
    channel.type === 11
      ? `<h1>${escapeHtml(channel.name)}</h1><p>A thread. Use <b>Save thread to brain</b> on any message (hover it) to save the whole conversation, then <code>/ask</code> about something said in it.</p>`
      : `<h1>Welcome to #${escapeHtml(channel.name)}!</h1><p>This is the start of the playground. Type <code>/save</code> with a link, then <code>/ask</code> about it.</p>`;
  list.replaceChildren(el('li', 'welcome', intro));
  for (const message of messages.values()) upsert(message);
}

// Opening a jump link: the message's channel, scrolled to it and highlighted, as Discord does.
async function jumpTo(channelId, messageId) {
  if (view.channelId !== channelId) await changeView({ channelId });
  const node = document.getElementById(`m-${messageId}`);
  if (!node) return;
  node.scrollIntoView({ block: 'center' });
  node.classList.remove('jumped');
  void node.offsetWidth;
  node.classList.add('jumped');
}

list.addEventListener('click', (event) => {
  const a = event.target.closest('a[data-jump-message]');
  if (!a) return;
  event.preventDefault();
  jumpTo(a.dataset.jumpChannel, a.dataset.jumpMessage);
});

async function changeView(change) {
  const before = view.persona;
  const next = await call('/playground/view', change);
  if (next) {
    const { channels: viewable, ...rest } = next;
    view = rest;
    if (viewable) {
      channels = viewable;
      buildSidebar();
    }
  }
  // The server sends only what this persona may read: another persona's page starts from its own messages.
  if (view.persona !== before) {
    const state = await (await fetch('/playground/state')).json();
    messages.clear();
    for (const message of state.messages) messages.set(message.id, message);
  }
  showChannel();
}

channelLinks.addEventListener('click', (event) => {
  const a = event.target.closest('a[data-channel]');
  if (!a) return;
  event.preventDefault();
  changeView({ channelId: a.dataset.channel });
});
personaSelect.addEventListener('change', () => changeView({ persona: personaSelect.value }));

async function start() {
  const state = await (await fetch('/playground/state')).json();
  commands = state.commands;
  channels = state.channels ?? [];
  serverId = state.server?.id ?? '';
  view = state.view ?? view;
  for (const message of state.messages) messages.set(message.id, message);
  buildSidebar();
  showChannel();
  const events = new EventSource('/playground/events');
  events.addEventListener('open', () => {
    connection.textContent = '● live';
    connection.classList.add('live');
  });
  events.addEventListener('error', () => {
    connection.textContent = 'reconnecting…';
    connection.classList.remove('live');
  });
  events.addEventListener('message', (event) => upsert(JSON.parse(event.data)));
  input.focus();
}

start().catch((error) => localError(`Could not load the playground: ${error.message}`));
