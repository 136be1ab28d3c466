// Polls report.json and renders a small summary box.
const REFRESH_MS = 5000;
const REPORT_URL = "../report.json";

function renderSummary(report) {
  const total = Object.keys(report.results).length;
  const broken = report.broken.length;
  const box = document.getElementById("summary");
  box.textContent = `${total} links checked, ${broken} broken`;
  box.className = broken > 0 ? "bad" : "good";
}

async function refresh() {
  try {
    const response = await fetch(REPORT_URL, { cache: "no-store" });
    renderSummary(await response.json());
  } catch (err) {
    console.warn("could not load report", err);
  }
}

refresh();
setInterval(refresh, REFRESH_MS);
