"""Turn the benchmark's results into verdicts on the issue's targets and a Markdown report."""

from __future__ import annotations

import os
from typing import Any

P99_BUDGET_MS = 50.0  # the ceiling of the rate step, the shards and every stall
P99_AT_RATE_MS = 10.0  # SQLite at the offered rate (200/s)
SLASH_RATIO_P50 = 1.3  # SQLite's p50 over the bare slash bot's
POSTGRES_SLASH_RATIO_P50 = 2.0
RSS_BUDGET_MB = 100.0
READY_BUDGET_S = 1.0
STALL_BUDGET_MS = 50.0
AUTOCOMPLETE_P99_MS = 5.0
FLOOR_NAMES = {"bare": "the bare bot", "slash": "the bare slash bot"}


def _ms(value: float | None) -> str:
    return "—" if value is None else f"{value:.1f} ms"


def _num(value: float | None, unit: str = "", digits: int = 1) -> str:
    return "—" if value is None else f"{value:.{digits}f}{unit}"


def ratios(
    results: dict[str, Any], floor: str = "bare", bot: str = "load"
) -> dict[str, float | None]:
    """Return a bot's latency over a floor's (`bare` or `slash`) at p50 and p99."""
    real, bare = results.get(bot), results.get(floor)
    out: dict[str, float | None] = {"p50": None, "p99": None}
    if not real or not bare:
        return out
    for q in out:
        a, b = real["latency"][f"{q}_ms"], bare["latency"][f"{q}_ms"]
        out[q] = a / b if a is not None and b else None
    return out


Add = Any  # add(target, measured, met, floor="—")


def verdicts(results: dict[str, Any]) -> list[dict[str, Any]]:
    """Return each target with its measured value, its floor, and whether it was met."""
    out: list[dict[str, Any]] = []

    def add(target: str, measured: str, met: bool | None, floor: str = "—") -> None:
        out.append({"target": target, "measured": measured, "floor": floor, "met": met})

    _load_verdicts(results, add)
    _scale_verdicts(results, add)
    _burst_verdicts(results.get("burst"), add)
    _worst_case_verdicts(results, add)
    return out


def _floor_ms(results: dict[str, Any], q: str) -> str:
    cells = [
        f"{name} {_ms(results[floor]['latency'][f'{q}_ms'])}"
        for floor, name in (("slash", "slash"), ("bare", "bare"))
        if floor in results
    ]
    return ", ".join(cells) or "—"


def _load_verdicts(results: dict[str, Any], add: Add) -> None:
    real = results.get("load")
    if not real:
        return
    lat = real["latency"]
    add(
        f"{real['offered_rate']:g}/s across {real['channels']} channels (SQLite): no errors",
        f"{real['errors']} errors in {real['interactions']} interactions",
        real["errors"] == 0 and real["answered"] == real["interactions"],
    )
    add(
        f"SQLite p99 ≤ {P99_AT_RATE_MS:g} ms at {real['offered_rate']:g}/s",
        _ms(lat["p99_ms"]),
        lat["p99_ms"] is not None and lat["p99_ms"] <= P99_AT_RATE_MS,
        _floor_ms(results, "p99"),
    )
    slash = ratios(results, "slash")
    if slash["p50"] is not None:
        add(
            f"SQLite p50 ≤ {SLASH_RATIO_P50:g}× the bare slash bot",
            f"{slash['p50']:.2f}× ({_ms(lat['p50_ms'])}; p99 {slash['p99']:.2f}×)",
            slash["p50"] <= SLASH_RATIO_P50,
            _floor_ms(results, "p50"),
        )
    bare = ratios(results, "bare")
    if bare["p50"] is not None:
        add(
            "SQLite against the bare bot (no target: the floor below the slash bot)",
            f"p50 {bare['p50']:.2f}×, p99 {bare['p99']:.2f}×",
            None,
            _floor_ms(results, "p50"),
        )
    ramp = results.get("ramp")
    if ramp:
        best = ramp["highest_rate_within"]
        add(
            f"highest offered rate with SQLite p99 ≤ {P99_BUDGET_MS:g} ms (stepped)",
            "none of the steps" if best is None else f"{best:g}/s (steps: {_steps(ramp)})",
            None,
            "—",
        )


def _steps(ramp: dict[str, Any]) -> str:
    return ", ".join(
        f"{s['rate']:g}/s p99 {_ms(s['p99_ms'])}"
        + (f" {s['errors']} errors" if s["errors"] else "")
        for s in ramp["steps"]
    )


def _scale_verdicts(results: dict[str, Any], add: Add) -> None:
    pg = results.get("postgres")
    if pg:
        r = ratios(results, "slash", bot="postgres")
        lat = pg["latency"]
        add(
            f"PostgreSQL {pg['offered_rate']:g}/s across {pg['channels']} channels: no errors",
            f"{pg['errors']} errors in {pg['interactions']} interactions",
            pg["errors"] == 0 and pg["answered"] == pg["interactions"],
        )
        if r["p50"] is not None:
            add(
                f"PostgreSQL p50 ≤ {POSTGRES_SLASH_RATIO_P50:g}× the bare slash bot",
                f"{r['p50']:.2f}× ({_ms(lat['p50_ms'])}; p99 {_ms(lat['p99_ms'])})",
                r["p50"] <= POSTGRES_SLASH_RATIO_P50,
                _floor_ms(results, "p50"),
            )
    shards = results.get("shards")
    if shards and "two_processes" in shards:
        two, one = shards["two_processes"], shards.get("one_process")
        lat = two["latency"]
        add(
            f"two shard processes on PostgreSQL: {shards['rate']:g}/s with p99 ≤ "
            f"{P99_BUDGET_MS:g} ms",
            f"{two['answered_per_s']:.0f}/s answered, p99 {_ms(lat['p99_ms'])}, "
            f"{two['errors']} errors"
            + (
                f" (one process: {one['answered_per_s']:.0f}/s, p99 {_ms(one['latency']['p99_ms'])})"
                if one
                else ""
            ),
            two["errors"] == 0
            and lat["p99_ms"] is not None
            and lat["p99_ms"] <= P99_BUDGET_MS
            and two["answered_per_s"] >= 0.98 * shards["rate"],
        )
        lost = two.get("lost_updates")
        if lost is not None:
            add(
                "two shard processes: zero lost updates",
                f"{lost['lost']} lost of {lost['applied']} answered /grit damage"
                + _late_answers(lost),
                lost["lost"] == 0
                and (
                    (lost["unanswered"] == 0 and not lost.get("gave_up"))
                    or bool(lost.get("each_sent_stored_once"))
                ),
            )


def _late_answers(lost: dict[str, Any]) -> str:
    """Say what the commands answered too late, or given up on, tell the lost-update check."""
    given_up = lost.get("gave_up", 0)
    if not lost["unanswered"] and not given_up:
        return ""
    if lost.get("each_sent_stored_once"):
        return (
            f" ({lost['unanswered']} answered late, {given_up} given up on as busy; every one "
            f"of the {lost['sent']} sent and not given up on is in the store exactly once, "
            "none given up on is)"
        )
    return (
        f" ({lost['unanswered']} unanswered, {lost.get('unreported', 0)} of them applied: "
        "the check is exact only with none unanswered)"
    )


def _burst_verdicts(burst: dict[str, Any] | None, add: Add) -> None:
    if not burst:
        return
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


def _worst_case_verdicts(results: dict[str, Any], add: Add) -> None:
    memory = results.get("memory")
    if memory and "peak_rss_mb" in memory:
        add(
            f"{memory['encounters']:,} active encounters × {memory['combatants']}: "
            f"peak RSS ≤ {RSS_BUDGET_MB:g} MB",
            _num(memory["peak_rss_mb"], " MB"),
            memory["peak_rss_mb"] is not None and memory["peak_rss_mb"] <= RSS_BUDGET_MB,
            _floor_mb(results),
        )
    for s in (results.get("startup") or {}).values():
        if not isinstance(s, dict) or not s["stored_encounters"] or s.get("bot") == "bare":
            continue
        add(
            f"first answer within {READY_BUDGET_S:g} s of spawn with "
            f"{s['stored_encounters']:,} stored encounters",
            _num(s["spawn_to_first_answer_s"], " s", 2),
            s["spawn_to_first_answer_s"] is not None
            and s["spawn_to_first_answer_s"] <= READY_BUDGET_S,
            _empty_start(results),
        )
    _autocomplete_verdicts(results, add)
    stall = results.get("stall")
    if stall:
        add(
            f"no input stalls the event loop > {STALL_BUDGET_MS:g} ms "
            f"(the fuzzer's {stall['cases']} nastiest dice cases)",
            f"{_ms(stall['worst_stall_ms'])} (the loop's own CPU at most "
            f"{_ms(stall['worst_busy_ms'])})",
            stall["worst_stall_ms"] <= STALL_BUDGET_MS,
            f"set-up by ordinary commands {_ms(stall['worst_set_up_stall_ms'])}",
        )
    big = results.get("bigfight")
    if big:
        add(
            f"big fights ({', '.join(big['fights'])}): no stall > {STALL_BUDGET_MS:g} ms",
            f"{_ms(big['worst_stall_ms'])} ({big['worst_case'] or '—'}; loop CPU "
            f"{_ms(big['worst_busy_ms'])})",
            big["worst_stall_ms"] <= STALL_BUDGET_MS and not big["problems"],
        )


def _floor_mb(results: dict[str, Any]) -> str:
    floors = [
        f"{name} {_num(results[f]['peak_rss_mb'], ' MB')}"
        for f, name in (("slash", "slash bot"), ("bare", "bare bot"))
        if f in results and results[f].get("peak_rss_mb")
    ]
    return ", ".join(floors) or "—"


def _empty_start(results: dict[str, Any]) -> str:
    starts = results.get("startup") or {}
    cells = [
        f"{name} {_num(starts[key]['spawn_to_first_answer_s'], ' s', 2)}"
        for key, name in (("bare bot", "bare bot"), ("empty", "empty database"))
        if isinstance(starts.get(key), dict)
    ]
    return ", ".join(cells) or "—"


def _autocomplete_verdicts(results: dict[str, Any], add: Add) -> None:
    ac = results.get("autocomplete")
    if ac:
        for kind, k in ac["by_kind"].items():
            add(
                f"{kind} p99 ≤ {AUTOCOMPLETE_P99_MS:g} ms end to end ({ac['combatants']} "
                f"combatants, {ac['entries']} catalogue entries)",
                f"{_ms(k['p99_ms'])} (p50 {_ms(k['p50_ms'])}, {k['n']} answered of {k['sent']})",
                k["p99_ms"] is not None
                and k["p99_ms"] <= AUTOCOMPLETE_P99_MS
                and k["n"] == k["sent"],
                _ms(ac["floor"].get(kind, {}).get("p99_ms")) + " (slash bot)"
                if ac.get("floor")
                else "—",
            )
    lookup = results.get("lookup")
    if lookup:
        add(
            f"/power look-up ≤ {lookup['budget_ms']:g} ms p99 in-process "
            f"({lookup['entries']} entries)",
            _num(lookup["p99_ms"], " ms", 3),
            lookup["p99_ms"] <= lookup["budget_ms"],
        )


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
        "| target | measured | floor | met |",
        "|---|---|---|---|",
    ]
    for v in results["targets"]:
        met = "—" if v["met"] is None else ("yes" if v["met"] else "**no**")
        lines.append(f"| {v['target']} | {v['measured']} | {v.get('floor', '—')} | {met} |")
    mix = ", ".join(f"{k} {share:.0%}" for k, share in results["mix"].items())
    lines += ["", f"Mix (share of interactions): {mix}."]
    if results["missing_from_mix"]:
        missing = ", ".join(f"{k} ({c})" for k, c in results["missing_from_mix"].items())
        lines.append(f"Missing from the mix (command not in the bot): {missing}.")
    for which in ("load", "slash", "bare"):
        if which in results:
            lines += _load_section(results[which])
    for floor in ("slash", "bare"):
        if "load" in results and floor in results:
            r = ratios(results, floor)
            lines += [
                "",
                f"**Tablehand / {FLOOR_NAMES[floor]}**: p50 {_num(r['p50'], '×', 2)}, "
                f"p99 {_num(r['p99'], '×', 2)}.",
            ]
    if "ramp" in results:
        lines += _ramp_section(results["ramp"])
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
            f"{_num(m.get('rss_after_start_mb'), ' MB')}, once the trackers settled "
            f"{_num(m.get('rss_at_end_mb'), ' MB')}).",
        ]
    if "startup" in results:
        lines += [
            "",
            "## Start-up",
            "",
            "| database | spawn → gateway | spawn → first answer | on_ready logged "
            "| a command just after on_ready |",
            "|---|---|---|---|---|",
        ]
        for s in results["startup"].values():
            if not isinstance(s, dict):
                continue
            what = (
                "the bare bot (no database)"
                if s.get("bot") == "bare"
                else f"{s['stored_encounters']:,} encounters ({s['db_mb']:.1f} MB)"
            )
            lines.append(
                f"| {what} | "
                f"{_num(s['spawn_to_gateway_s'], ' s', 2)} | "
                f"{_num(s['spawn_to_first_answer_s'], ' s', 2)} | "
                f"{_num(s['logged_on_ready_s'], ' s', 2)} | "
                f"{_ms(s.get('after_ready_answer_ms')) if s.get('after_ready_answer_ms') else 'no answer'} |"
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
    if "autocomplete" in results:
        lines += _autocomplete_section(results["autocomplete"])
    if "stall" in results:
        lines += _stall_section(results["stall"])
    if "bigfight" in results:
        lines += _bigfight_section(results["bigfight"])
    return "\n".join(lines) + "\n"


def _autocomplete_section(ac: dict[str, Any]) -> list[str]:
    lines = [
        "",
        "## Autocomplete end to end",
        "",
        f"One channel with a fight of {ac['combatants']} combatants; `/power name` typed with a "
        f"prefix of each of the {ac['entries']} catalogue entries and `/grit damage combatant` "
        f"as often, shuffled, offered at {ac['rate']:g}/s; the same against the bare slash bot.",
        "",
        "| kind | Tablehand p50 / p99 / max | answered | slash bot p50 / p99 |",
        "|---|---|---|---|",
    ]
    for kind, k in ac.get("by_kind", {}).items():
        f = ac.get("floor", {}).get(kind, {})
        lines.append(
            f"| {kind} | {_ms(k['p50_ms'])} / {_ms(k['p99_ms'])} / {_ms(k['max_ms'])} | "
            f"{k['n']}/{k['sent']} | {_ms(f.get('p50_ms'))} / {_ms(f.get('p99_ms'))} |"
        )
    for who, key in (("Tablehand", "measuring_side"), ("The slash bot", "floor_measuring_side")):
        if ac.get(key):
            lines += ["", f"{who}'s run. {_measuring_side(ac[key])}"]
    return lines


def _bigfight_section(big: dict[str, Any]) -> list[str]:
    top = "; ".join(f"{t['ms']:.1f} ms (CPU {t['busy_ms']:.1f} ms) {t['case']}" for t in big["top"])
    return [
        "",
        "## Event-loop stalls in the biggest fights",
        "",
        f"Fights of {' and '.join(big['fights'])} combatants played by commands (set-up, "
        f"effects, turns, an attack, the round's summary, every page of /init list, the end, "
        f"autocompletes), {big['steps']} interactions under the loop-lag monitor: worst stall "
        f"{_ms(big['worst_stall_ms'])} ({big['worst_case'] or 'none over 1 ms'}), most loop "
        f"CPU in one stall {_ms(big['worst_busy_ms'])}. Worst steps: {top or '—'}. "
        f"Problems: {'; '.join(big['problems']) or 'none'}.",
    ]


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


def _measuring_side(side: dict[str, Any] | None) -> str:
    """Say what the measuring side itself took, beside a latency figure."""
    if not side:
        return ""
    lag, send = side["generator_lag_ms"], side["server_send_ms"]
    return (
        f"Measuring side: generator lag (dispatch after its slot; not in the latency) p50 "
        f"{_ms(lag['p50_ms'])}, p99 {_ms(lag['p99_ms'])}, max {_ms(lag['max_ms'])}; dispatch → "
        f"frame on the bot's socket (in the latency) p50 {_ms(send['p50_ms'])}, p99 "
        f"{_ms(send['p99_ms'])}; the loopback and generator's CPU per interaction "
        f"{_num(side['cpu_ms_per_interaction'], ' ms', 2)}."
    )


DISTURBED_CORES = 0.15  # other work beyond this during a run makes its latency the machine's


def _others(cores: float | None) -> str:
    """Say how busy other work kept the machine during a run (nothing when not measured)."""
    if cores is None:
        return ""
    said = f"Other processes kept {cores:.2f} cores busy meanwhile"
    if cores > DISTURBED_CORES:
        return f"{said}: **a disturbed run**, its latency is partly the machine's. "
    return f"{said}. "


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
        f"p99 {_ms(lat['p99_ms'])}, max {_ms(lat['max_ms'])}. "
        f"{_measuring_side(r.get('measuring_side'))} Peak RSS {_num(r['peak_rss_mb'], ' MB')}. "
        f"CPU per interaction in the bot's process {_num(r.get('cpu_ms_per_interaction'), ' ms', 2)}. "
        f"{_others(r.get('others_cores'))}"
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
        "command's block is a transaction holding the channel's advisory lock; the row it "
        "last saw is checked there, not trusted (two round trips when unchanged).",
        "",
        "| store | interactions | answered | errors | p50 | p90 | p99 | max | CPU/interaction "
        "| REST/interaction |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, r in runs:
        lat = r["latency"]
        lines.append(
            f"| {name} | {r['interactions']} | {r['answered']} | {r['errors']} | "
            f"{_ms(lat['p50_ms'])} | {_ms(lat['p90_ms'])} | {_ms(lat['p99_ms'])} | "
            f"{_ms(lat['max_ms'])} | {_num(r.get('cpu_ms_per_interaction'), ' ms', 2)} | "
            f"{r['rest_calls_per_interaction']:.2f} |"
        )
    kinds = sorted(set().union(*(r["by_kind"] for _, r in runs)))
    lines += [
        "",
        "Per command (latency under the load; PostgreSQL's p50 over SQLite's is its extra cost):",
        "",
        "| kind | "
        + " | ".join(f"{name} p50 / p99" for name, _ in runs)
        + " | PostgreSQL / SQLite p50 |",
        "|---|" + "---|" * (len(runs) + 1),
    ]
    for kind in kinds:
        cells = []
        for _, r in runs:
            k = r["by_kind"].get(kind)
            cells.append("—" if k is None else f"{_ms(k['p50_ms'])} / {_ms(k['p99_ms'])}")
        a = (sqlite or {}).get("by_kind", {}).get(kind, {}).get("p50_ms")
        b = pg["by_kind"].get(kind, {}).get("p50_ms")
        cells.append(_num(b / a, "×", 2) if a and b else "—")
        lines.append(f"| {kind} | " + " | ".join(cells) + " |")
    return lines


def _ramp_section(ramp: dict[str, Any]) -> list[str]:
    best = ramp["highest_rate_within"]
    lines = [
        "",
        f"## SQLite: the offered rate stepped up (p99 ≤ {P99_BUDGET_MS:g} ms)",
        "",
        f"{ramp['channels']} channels, {ramp['step_s']:g} s measured per step after "
        f"{ramp['warmup_s']:g} s of warm-up; stops at the first step over the budget. "
        f"Highest rate within it: "
        f"{'none' if best is None else f'{best:g}/s'}.",
        "",
        "| offered | sent/s | answered | errors | p50 | p99 | max | generator lag p99 |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for st in ramp["steps"]:
        lines.append(
            f"| {st['rate']:g}/s | {st['achieved_rate']:.0f} | {st['answered']}/{st['interactions']} "
            f"| {st['errors']} | {_ms(st['p50_ms'])} | {_ms(st['p99_ms'])} | {_ms(st['max_ms'])} "
            f"| {_ms(st['lag_p99_ms'])} |"
        )
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
    for layout, name in (("one_process", "one process"), ("two_processes", "two processes")):
        cores = (s.get(layout) or {}).get("cores")
        if cores:
            lines += [
                "",
                f"Cores kept busy over the run ({name}; the machine has {os.cpu_count()}): "
                f"the bots {cores['bots']:.2f}, PostgreSQL {cores['postgres']:.2f}, the "
                f"generator and loopback Discord {cores['generator_and_loopback']:.2f}, "
                f"together {sum(cores.values()):.2f}. "
                f"{_others(s[layout].get('others_cores'))}".rstrip(),
            ]
    one, two = s.get("one_process"), s.get("two_processes")
    if one and two and one["latency"]["p99_ms"] and two["latency"]["p99_ms"]:
        lines += [
            "",
            f"Scaling from one process to two: answered/s {two['answered_per_s'] / max(one['answered_per_s'], 1e-9):.2f}×, "
            f"p50 {two['latency']['p50_ms'] / one['latency']['p50_ms']:.2f}×, "
            f"p99 {two['latency']['p99_ms'] / one['latency']['p99_ms']:.2f}× (the two processes "
            "share this machine's two cores with the generator and PostgreSQL).",
        ]
    lost = (two or {}).get("lost_updates")
    if lost:
        lines += [
            "",
            f"Lost updates (two processes): {lost['sent']} `/grit damage amount:1` offered at "
            f"{lost['offered_rate']:g}/s across both shards, none taking a Grit below 0; "
            f"{lost['applied']} answered as applied, {lost.get('gave_up', 0)} given up on "
            f"(the channel busy past the bot's patience: changed nothing), "
            f"{lost['unanswered']} otherwise not. Answered changes "
            f"missing from the store: {lost['lost']}; changes in the store nobody was told of "
            f"(answered past the deadline): {lost.get('unreported', 0)}.",
        ]
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
