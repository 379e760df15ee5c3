/**
 * Stable colors: known providers and phases get their own, anything else a
 * hue derived from its name, so the same speaker is the same color everywhere.
 */
const PROVIDER_HUES: Record<string, number> = {
  anthropic: 24,
  claude: 24,
  openai: 160,
  codex: 160,
  google: 215,
  gemini: 215,
  openrouter: 270,
  mistral: 40,
  ollama: 190,
  local: 0,
};

const PHASE_HUES: Record<string, number> = {
  plan: 230,
  review: 280,
  execute: 140,
  verify: 190,
  revision: 40,
  critique: 0,
  adjudicate: 320,
};

function hashHue(text: string): number {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = (hash * 31 + text.charCodeAt(i)) | 0;
  return Math.abs(hash) % 360;
}

export function providerHue(provider: string | null): number {
  if (!provider) return 220;
  return PROVIDER_HUES[provider.toLowerCase()] ?? hashHue(provider);
}

export function phaseHue(phase: string | null): number {
  if (!phase) return 220;
  return PHASE_HUES[phase.toLowerCase()] ?? hashHue(phase);
}

export function hueOf(name: string): number {
  return hashHue(name);
}
