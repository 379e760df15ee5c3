import DOMPurify from 'dompurify';
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdownLang from 'highlight.js/lib/languages/markdown';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import { Marked } from 'marked';
import { memo, useMemo } from 'react';

const languages = { bash, css, diff, go, javascript, json, markdown: markdownLang, python, rust, sql, typescript, xml, yaml };
for (const [name, language] of Object.entries(languages)) hljs.registerLanguage(name, language);
hljs.registerAliases(['sh', 'shell', 'zsh'], { languageName: 'bash' });
hljs.registerAliases(['ts', 'tsx'], { languageName: 'typescript' });
hljs.registerAliases(['js', 'jsx', 'mjs'], { languageName: 'javascript' });
hljs.registerAliases(['html', 'svg'], { languageName: 'xml' });
hljs.registerAliases(['py'], { languageName: 'python' });
hljs.registerAliases(['yml'], { languageName: 'yaml' });
hljs.registerAliases(['md'], { languageName: 'markdown' });

function escapeHtml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
}

/** Highlights code in one named language; never auto-detects (too slow for megabytes of output). */
export function highlight(code: string, lang: string | undefined): string {
  const language = lang && hljs.getLanguage(lang) ? lang : null;
  if (!language) return escapeHtml(code);
  return hljs.highlight(code, { language, ignoreIllegals: true }).value;
}

const marked = new Marked({
  gfm: true,
  breaks: false,
  renderer: {
    code({ text, lang }) {
      const name = (lang ?? '').split(/\s/)[0]?.toLowerCase();
      return `<pre class="code"><code class="hljs${name ? ` language-${escapeHtml(name)}` : ''}">${highlight(text, name)}</code></pre>`;
    },
  },
});

// One configuration for every call: sanitize() otherwise rebuilds its allow-lists each time.
DOMPurify.setConfig({});

/** Past this size markdown parsing stalls the page; such content is shown as plain text. */
export const MARKDOWN_LIMIT = 512 * 1024;

/**
 * Rendered HTML by source text. A virtualized list unmounts rows that scroll
 * away and mounts them again on the way back: parsing, highlighting and
 * sanitizing once per text keeps scrolling to painting only.
 */
const rendered = new Map<string, string>();
const CACHE_ENTRIES = 3000;

function renderMarkdown(text: string): string {
  let html = rendered.get(text);
  if (html === undefined) {
    html = DOMPurify.sanitize(marked.parse(text, { async: false }));
    if (rendered.size >= CACHE_ENTRIES) rendered.delete(rendered.keys().next().value as string);
    rendered.set(text, html);
  }
  return html;
}

/** Agent output rendered as markdown with highlighted code, sanitized: agents' text is untrusted. */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  const html = useMemo(() => (text.length > MARKDOWN_LIMIT ? null : renderMarkdown(text)), [text]);
  if (html === null) return <pre className="plain">{text}</pre>;
  // The HTML comes from marked and is sanitized by DOMPurify just above.
  // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized markdown
  return <div className="markdown" dangerouslySetInnerHTML={{ __html: html }} />;
});

/** A JSON value as a highlighted block (tool inputs, data blocks). */
export function JsonBlock({ value }: { value: unknown }) {
  const html = useMemo(() => highlight(JSON.stringify(value, null, 2) ?? 'null', 'json'), [value]);
  return (
    <pre className="code">
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: highlight.js escapes its input */}
      <code className="hljs language-json" dangerouslySetInnerHTML={{ __html: html }} />
    </pre>
  );
}
