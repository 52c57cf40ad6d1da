"""Turn the benchmark's results into verdicts on the issue's targets and a Markdown report."""

from __future__ import annotations

from typing import Any

P99_BUDGET_MS = 50.0
BARE_RATIO_P50 = 2.0
RSS_BUDGET_MB = 200.0
READY_BUDGET_S = 2.0
STALL_BUDGET_MS = 50.0


def _ms(value: float | None) -> str:
    return "—" if value is None else f"{value:.1f} ms"


def _num(value: float | None, unit: str = "", digits: int = 1) -> str:
    return "—" if value is None else f"{value:.{digits}f}{unit}"


def ratios(results: dict[str, Any]) -> dict[str, float | None]:
    """Return Tablehand's latency over the bare bot's at p50 and p99."""
    real, bare = results.get("load"), results.get("bare")
    out: dict[str, float | None] = {"p50": None, "p99": None}
    if not real or not bare:
        return out
    for q in out:
        a, b = real["latency"][f"{q}_ms"], bare["latency"][f"{q}_ms"]
        out[q] = a / b if a is not None and b else None
    return out


def verdicts(results: dict[str, Any]) -> list[dict[str, Any]]:
    """Return each target with its measured value and whether it was met."""
    out: list[dict[str, Any]] = []

    def add(target: str, measured: str, met: bool | None) -> None:
        out.append({"target": target, "measured": measured, "met": met})

    real = results.get("load")
    if real:
        lat = real["latency"]
        add(
            f"{real['offered_rate']:g}/s across {real['channels']} channels: no errors",
            f"{real['errors']} errors in {real['interactions']} interactions",
            real["errors"] == 0 and real["answered"] == real["interactions"],
        )
        add(
            f"p99 ≤ {P99_BUDGET_MS:g} ms",
            _ms(lat["p99_ms"]),
            lat["p99_ms"] is not None and lat["p99_ms"] <= P99_BUDGET_MS,
        )
        r = ratios(results)
        if r["p50"] is not None:
            add(
                f"p50 ≤ {BARE_RATIO_P50:g}× the bare bot",
                f"{r['p50']:.2f}× (p99: {r['p99']:.2f}×)" if r["p99"] else f"{r['p50']:.2f}×",
                r["p50"] <= BARE_RATIO_P50,
            )
    burst = results.get("burst")
    if burst:
        add(
            f"burst of {burst['commands']}: every command answered",
            f"{burst['answered']}/{burst['commands']} (+{burst['clicks_answered']}/"
            f"{burst['defense_clicks']} defense clicks)",
            burst["answered"] == burst["commands"]
            and burst["clicks_answered"] == burst["defense_clicks"],
        )
        add(
            "burst: tracker edited at most once a second",
            f"{burst['tracker_edits']} edits, at most {burst['tracker_edits_max_in_1s']} in any 1 s",
            burst["tracker_edits_max_in_1s"] <= 1,
        )
        add(
            "burst: tracker ends on the final state",
            "matches the store" if burst["final_tracker_matches_store"] else "differs",
            burst["final_tracker_matches_store"],
        )
        add("burst: zero 429s", str(burst["rate_limited_429"]), burst["rate_limited_429"] == 0)
    memory = results.get("memory")
    if memory and "peak_rss_mb" in memory:
        add(
            f"{memory['encounters']} active encounters × {memory['combatants']}: "
            f"peak RSS ≤ {RSS_BUDGET_MB:g} MB",
            _num(memory["peak_rss_mb"], " MB"),
            memory["peak_rss_mb"] is not None and memory["peak_rss_mb"] <= RSS_BUDGET_MB,
        )
    startup = results.get("startup")
    if startup:
        stored = startup["stored"]
        add(
            f"ready within {READY_BUDGET_S:g} s with {stored['stored_encounters']:,} stored "
            "encounters (spawn → first command answered)",
            _num(stored["spawn_to_first_answer_s"], " s", 2),
            stored["spawn_to_first_answer_s"] is not None
            and stored["spawn_to_first_answer_s"] <= READY_BUDGET_S,
        )
    lookup = results.get("lookup")
    if lookup:
        add(
            f"/power autocomplete ≤ {lookup['budget_ms']:g} ms p99 in-process",
            _num(lookup["p99_ms"], " ms", 3),
            lookup["p99_ms"] <= lookup["budget_ms"],
        )
    stall = results.get("stall")
    if stall:
        add(
            f"no input stalls the event loop > {STALL_BUDGET_MS:g} ms "
            f"(the fuzzer's {stall['cases']} nastiest dice cases)",
            f"{_ms(stall['worst_stall_ms'])} (the loop's own CPU at most "
            f"{_ms(stall['worst_busy_ms'])})",
            stall["worst_stall_ms"] <= STALL_BUDGET_MS,
        )
    return out


def markdown(results: dict[str, Any]) -> str:
    """Return the whole report as Markdown."""
    lines = [
        f"# Tablehand benchmark — {results['when']}",
        "",
        f"`{results['command']}` on {results['machine']['cpus']} CPUs, Python "
        f"{results['machine']['python']}, load average at start "
        f"{_load(results['machine']['load_average_at_start'])}.",
        "",
        "## Targets",
        "",
        "| target | measured | met |",
        "|---|---|---|",
    ]
    for v in results["targets"]:
        met = "—" if v["met"] is None else ("yes" if v["met"] else "**no**")
        lines.append(f"| {v['target']} | {v['measured']} | {met} |")
    mix = ", ".join(f"{k} {share:.0%}" for k, share in results["mix"].items())
    lines += ["", f"Mix (share of interactions): {mix}."]
    if results["missing_from_mix"]:
        missing = ", ".join(f"{k} ({c})" for k, c in results["missing_from_mix"].items())
        lines.append(f"Missing from the mix (command not in the bot): {missing}.")
    for which in ("load", "bare"):
        if which in results:
            lines += _load_section(results[which])
    if "load" in results and "bare" in results:
        r = ratios(results)
        lines += [
            "",
            f"**Tablehand / bare**: p50 {_num(r['p50'], '×', 2)}, p99 {_num(r['p99'], '×', 2)}.",
        ]
    if "postgres" in results:
        lines += _backends_section(results.get("load"), results["postgres"])
    if "shards" in results:
        lines += _shards_section(results["shards"])
    if "burst" in results:
        lines += _burst_section(results["burst"])
    if "memory" in results:
        m = results["memory"]
        lines += [
            "",
            "## Memory",
            "",
            f"{m.get('encounters')} seeded encounters × {m.get('combatants')} combatants, each "
            f"touched with one /init next ({m.get('answered')}/{m.get('touched')} answered, "
            f"{m.get('trackers_edited')} trackers edited): peak RSS "
            f"{_num(m.get('peak_rss_mb'), ' MB')} (after start-up "
            f"{_num(m.get('rss_after_start_mb'), ' MB')}).",
        ]
    if "startup" in results:
        lines += [
            "",
            "## Start-up",
            "",
            "| database | spawn → gateway | spawn → first answer | on_ready logged |",
            "|---|---|---|---|",
        ]
        for s in results["startup"].values():
            if not isinstance(s, dict):
                continue
            lines.append(
                f"| {s['stored_encounters']:,} encounters ({s['db_mb']:.1f} MB) | "
                f"{_num(s['spawn_to_gateway_s'], ' s', 2)} | "
                f"{_num(s['spawn_to_first_answer_s'], ' s', 2)} | "
                f"{_num(s['logged_on_ready_s'], ' s', 2)} |"
            )
        lines.append(
            "\n`on_ready` comes `guild_ready_timeout` (0.5 s in Tablehand, 2 s in discord.py) after the "
            "last GUILD_CREATE; commands are answered before it."
        )
    if "lookup" in results:
        lk = results["lookup"]
        lines += [
            "",
            "## Look-up (in-process)",
            "",
            f"`Lookup.suggest` over {lk['entries']} entries, {lk['n']} queries: "
            f"p50 {_num(lk['p50_ms'], ' ms', 3)}, p99 {_num(lk['p99_ms'], ' ms', 3)}, "
            f"max {_num(lk['max_ms'], ' ms', 3)} (load + index {lk['load_and_index_ms']:.0f} ms).",
        ]
    if "stall" in results:
        lines += _stall_section(results["stall"])
    return "\n".join(lines) + "\n"


def _stall_section(st: dict[str, Any]) -> list[str]:
    top = "; ".join(
        f"{t['ms']:.1f} ms (CPU {t['busy_ms']:.1f} ms) {t['case'][:80]}" for t in st["top"]
    )
    return [
        "",
        "## Event-loop stalls (the bot's own process)",
        "",
        f"Worst event-loop stall under the fuzzer's nastiest inputs ({st['cases']} dice bombs "
        f"at /roll, /grit damage and /attack, the defender's click included): "
        f"{_ms(st['worst_stall_ms'])} ({st['worst_case'] or 'none over 1 ms'}). Most of the "
        f"loop thread's own CPU time in one stall: {_ms(st['worst_busy_ms'])} "
        f"({st['worst_busy_case'] or '—'}); the rest of a stall is the machine's other work. "
        f"During the fights' set-up by ordinary commands: {_ms(st['worst_set_up_stall_ms'])} "
        f"(CPU {_ms(st['worst_set_up_busy_ms'])}). {st['stalls_over_1ms']} stalls over 1 ms "
        f"in all; {st['unanswered']} cases unanswered. Worst cases: {top or '—'}.",
    ]


def _load(value: Any) -> str:
    return "—" if not value else " / ".join(f"{x:.2f}" for x in value)


def _load_section(r: dict[str, Any]) -> list[str]:
    lat = r["latency"]
    lines = [
        "",
        f"## Load: {r['bot']}",
        "",
        f"{r['offered_rate']:g}/s offered ({r['achieved_rate']:.1f}/s sent) across "
        f"{r['channels']} channels, {r['duration_s']:g} s measured in {r['rounds']} round(s) "
        f"(warm-up {r['warmup_s']:g} s"
        f"{', then 1 s before each later round; the bots take turns' if r['rounds'] > 1 else ''}): "
        f"{r['interactions']} interactions, {r['answered']} answered, {r['errors']} errors. "
        f"Dispatch → first REST response: p50 {_ms(lat['p50_ms'])}, p90 {_ms(lat['p90_ms'])}, "
        f"p99 {_ms(lat['p99_ms'])}, max {_ms(lat['max_ms'])}. Generator lag p99 "
        f"{_ms(r['dispatch_lag_p99_ms'])}. Peak RSS {_num(r['peak_rss_mb'], ' MB')}. "
        f"REST calls per interaction under load {r['rest_calls_per_interaction']:.2f}; tracker "
        f"edits {r['tracker_edits_per_channel_s']:.2f}/s per channel (at most "
        f"{r['tracker_edits_max_in_1s']} in any 1 s).",
        "",
        "| kind | sent | p50 | p99 | max | REST calls per command (alone) |",
        "|---|---|---|---|---|---|",
    ]
    rest = r["rest_calls_per_command"]
    for kind, k in r["by_kind"].items():
        per = rest.get(kind, {}).get("per_command")
        routes = rest.get(kind, {}).get("routes", {})
        detail = ", ".join(f"{n:g}× {route}" for route, n in routes.items())
        lines.append(
            f"| {kind} | {k['sent']} | {_ms(k['p50_ms'])} | {_ms(k['p99_ms'])} | "
            f"{_ms(k['max_ms'])} | {_num(per, '', 1)}{' — ' + detail if detail else ''} |"
        )
    if r["problems"]:
        lines += ["", "Errors:"]
        for key, count in r["problems"].items():
            lines.append(f"- {count}× {key} — e.g. {r['problem_examples'][key]}")
    return lines


def _backends_section(sqlite: dict[str, Any] | None, pg: dict[str, Any]) -> list[str]:
    """Tablehand on SQLite and on PostgreSQL under the same load, side by side."""
    runs = [("SQLite", sqlite), ("PostgreSQL", pg)]
    runs = [(name, r) for name, r in runs if r is not None]
    lines = [
        "",
        "## SQLite and PostgreSQL, side by side",
        "",
        f"The same mix at {pg['offered_rate']:g}/s across {pg['channels']} channels, one bot "
        "process each (with `load`, the bots take turns in the same rounds). PostgreSQL: every "
        "command's block is a transaction holding the channel's advisory lock; no cache.",
        "",
        "| store | interactions | answered | errors | p50 | p90 | p99 | max | REST/interaction |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for name, r in runs:
        lat = r["latency"]
        lines.append(
            f"| {name} | {r['interactions']} | {r['answered']} | {r['errors']} | "
            f"{_ms(lat['p50_ms'])} | {_ms(lat['p90_ms'])} | {_ms(lat['p99_ms'])} | "
            f"{_ms(lat['max_ms'])} | {r['rest_calls_per_interaction']:.2f} |"
        )
    kinds = sorted(set().union(*(r["by_kind"] for _, r in runs)))
    lines += [
        "",
        "| kind | " + " | ".join(f"{name} p50 / p99" for name, _ in runs) + " |",
        "|---|" + "---|" * len(runs),
    ]
    for kind in kinds:
        cells = []
        for _, r in runs:
            k = r["by_kind"].get(kind)
            cells.append("—" if k is None else f"{_ms(k['p50_ms'])} / {_ms(k['p99_ms'])}")
        lines.append(f"| {kind} | " + " | ".join(cells) + " |")
    return lines


def _shards_section(s: dict[str, Any]) -> list[str]:
    """One process serving two shards against two processes serving one each."""
    lines = [
        "",
        "## One vs two shard processes (PostgreSQL, two guilds, two shards)",
        "",
        f"{s['rate']:g}/s offered across {s['channels']} channels in two guilds, one on each "
        "shard; the same seeded fights for each layout.",
        "",
        "| layout | interactions | answered/s | errors | p50 | p99 | max |",
        "|---|---|---|---|---|---|---|",
    ]
    for layout, name in (
        ("one_process", "1 process, shards 0+1"),
        ("two_processes", "2 processes, 1 shard each"),
    ):
        r = s.get(layout)
        if r is None:
            continue
        lat = r["latency"]
        lines.append(
            f"| {name} | {r['interactions']} | {r['answered_per_s']:.1f} | {r['errors']} | "
            f"{_ms(lat['p50_ms'])} | {_ms(lat['p99_ms'])} | {_ms(lat['max_ms'])} |"
        )
    return lines


def _burst_section(b: dict[str, Any]) -> list[str]:
    return [
        "",
        "## Burst (one channel, Discord's rate-limit headers on)",
        "",
        f"{b['commands']} commands ({', '.join(b['mix'])}) dispatched at once: {b['answered']} "
        f"answered within {b['answered_within_s']:.2f} s, plus {b['clicks_answered']}/"
        f"{b['defense_clicks']} defense clicks. Tracker: {b['tracker_edits']} edits, at most "
        f"{b['tracker_edits_max_in_1s']} in any 1 s (closest two "
        f"{_num(b['tracker_min_gap_s'], ' s', 2)} apart), final tracker "
        f"{'matches' if b['final_tracker_matches_store'] else 'DIFFERS FROM'} the stored state "
        f"(reached {_num(b['tracker_settled_after_s'], ' s', 2)} after the burst began; the "
        f"channel's message edits, attack prompts included, were {b['message_edits_in_channel']} "
        "under Discord's 5 per 5 s), "
        f"{'still pinned' if b['tracker_still_pinned'] else 'NOT the pinned one'}. "
        f"429s: {b['rate_limited_429']}."
        + (f" Problems: {'; '.join(b['problems'])}." if b["problems"] else ""),
    ]
