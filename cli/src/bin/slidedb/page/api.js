// The page's backend under `slidedb serve`: the server's JSON API.
// `slidedbAsk(path, params, signal)` resolves to the JSON of
// /api/v1/PATH?PARAMS (its first line), or rejects with an Error carrying
// the server's message and the HTTP status.
globalThis.slidedbAsk = async function ask(path, params, signal) {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v !== undefined && v !== null && v !== "") query.set(k, v);
  }
  const response = await fetch(`api/v1/${path}?${query}`, { signal });
  const text = await response.text();
  let body;
  try { body = JSON.parse(text.split("\n")[0]); } catch { body = { error: text }; }
  if (!response.ok) {
    const error = new Error(body.error || response.statusText);
    error.status = response.status;
    throw error;
  }
  return body;
};
