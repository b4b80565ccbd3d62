<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="fr">
<context>
    <name>AddFactForm</name>
    <message>
        <source>One imperative, self-contained sentence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>an ingested document, or a file path</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The verbatim quote of the document that supports the fact</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>globs, comma-separated (empty: everywhere)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add fact (Ctrl+Enter)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel (Esc)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Confidence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Statement</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Document</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quote</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scope</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add a fact by hand</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Document of the fact</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AskPanel</name>
    <message>
        <source>Ask</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Questions over the knowledge (BM25 over skills, learnings, documents and facts). The configured model answers from the retrieved passages only and cites them; without one, the passages are ranked.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ask a question, e.g. “how do we deploy Citadel?” — Enter asks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Answer with the model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Project:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Passages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Question</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading projects</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type a question first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>asking…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Asking the knowledge</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p style=&apos;color:gray&apos;&gt;{0}&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No model answer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p&gt;No passage of the knowledge matches the question.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} passage{0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, {n} cited</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AuditPanel</name>
    <message>
        <source>Provider:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Where:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key version:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loaded at:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Session log:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Verify chain</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check every event&apos;s signature, the chain and the checkpoints</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rotate key…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New key version; old versions stay readable for verification</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Audit key (this session)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Press Verify chain: the report per file appears here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No verification yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Verification</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Why the break is acceptable (kept, signed, in the event)…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Acknowledge break</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write a signed break_acknowledged event naming these breaks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Story (e.g. PD-42)…  (Ctrl+F)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Date:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No signed event yet: they appear as Lorekeeper records its decisions.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Signed event</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select an event to see exactly what was signed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Session log</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Audit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every decision is signed (HMAC-SHA256 over RFC 8785 JSON) and chained in the session log; a checkpoint in the store catches a cut tail. Erased events stay in place as signed tombstones.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading the session log</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>  (rotated to v{pending_version}: used from the next launch)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not loaded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>failed closed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Verifying the audit chain</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checking the audit chain</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chain: {0}. Verify chain still lists them; a new break is reported again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Acknowledging the chain break</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} chain break(s) acknowledged (signed event break_acknowledged #{seq})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chain verified: {events} events in {files} file(s), {valid} valid, {tombstones} tombstone(s).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No break: every signature, link and checkpoint verifies.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ERR_AUDIT_VERIFY_FAILED: {n} problem(s). First: {file} line {line} — {message}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rotate the audit key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Create key version {0} in {provider}?

The current version stays archived so every past event still verifies. A signed audit_key_rotated event is written with the new key, and a new audit session starts on it at once: every event from then on is signed with the new version (one key per session).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rotating the audit key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key rotation in progress — verify or rotate again once the new key&apos;s session has started</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key rotated: v{previous_version} → v{new_version}. The audit_key_rotated event is signed with v{new_version}, and so is every event from now on (a new session started on it); v{previous_version} stays readable for verification.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Audit key rotated to v{new_version}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The session log cannot be read: {0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} event{0} in {files} file{1}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · last {last} UTC</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Any type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Any date</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} of {total} event{0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No event matches these filters.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Signed event — {file} line {line}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AuditSettingsDialog</name>
    <message>
        <source>Audit key settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>optional: stored in the OS keyring, never in a file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Provider:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Vault address:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>KV v2 mount:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key path:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Vault auth:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>AppRole role id:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Token / secret id:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved to {config_path}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saving the audit key settings</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>BattleCard</name>
    <message>
        <source>new ★</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>old ★</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scenario {0} — winner: {winner}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;{0}{star}&lt;/b&gt; — combined &lt;b&gt;{score:.2f}&lt;/b&gt;/10 · evals {1}/10 · judge {judge:.1f}/10</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;{0}&lt;/b&gt;: A {score_a}/10, B {score_b}/10 → prefers {1} — {2}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Judge: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;br&gt;</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>BenchmarksPanel</name>
    <message>
        <source>Re-run benchmark</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Benchmark the selected run&apos;s proposal again (kept scenarios are reused)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Proposal:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No benchmark yet. Select a pending proposal in Proposals and press B (or `lorekeeper bench run ID`); Sage proposals are benchmarked automatically.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Battle view</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kept scenarios</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write a scenario (a request both versions answer), Enter to keep it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Used first by the next runs of this skill (yours before the model&apos;s); missing ones are generated by the model and kept.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Benchmarks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A/B runs of proposals: current vs proposed content on the same scenarios. Combined score (0-10) = {EVAL_WEIGHT:.0%} evals (share of rules passed × 10) + {JUDGE_WEIGHT:.0%} LLM judge (1-10, both orders, labels hidden; a judge that changes its mind when the order is swapped counts as a tie).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading benchmarks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All proposals</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} run(s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run #{id} · proposal #{proposal_id} · {badge}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{skill}: mean combined old {old_avg:.2f} → new {new_avg:.2f} (0-10). Model {provider}:{model}, judge {judge_model}, seed {seed}, {created_at:%Y-%m-%d %H:%M} UTC.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Benchmark #{id} of proposal #{proposal_id}: {badge}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Benchmark #{proposal_id}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Benchmark cancelled: nothing was stored.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kept scenarios of {skill}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading scenarios</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Adding a scenario</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deleting a scenario</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ChangeFeedBridge</name>
    <message>
        <source>Watching the store</source>
        <extracomment>change kind -&gt; bus topics</extracomment>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>CheatSheet</name>
    <message>
        <source>Keyboard shortcuts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p&gt;No shortcuts of its own.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ConflictDialog</name>
    <message>
        <source>{name} exists</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> in project {project}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A skill named {name} exists{where} (v{version}) with other content than {path}. Nothing is replaced unless you choose so.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Skip</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import as a new version</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fork into project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import renamed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What the import would change</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ConflictsModel</name>
    <message>
        <source>Why they conflict</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ConflictsPanel</name>
    <message>
        <source>Keep {0} ({1})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Merge… (M)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reject all (X)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep fact A, B, … (the others are rejected); type the reason, Enter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Merge into a new statement (type it, Enter; then the reason)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reject them all; type the reason, Enter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The merged statement (Enter, then the reason; Esc cancels)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Merged statement:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Conflicts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Facts that contradict each other, side by side with their sources. Keep one, merge them into a new statement or reject them all: a reason is required, the decision is signed and the other facts keep their history. Press ? for the keyboard shortcuts.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No open conflict. Contradictions appear here when `lorekeeper facts consolidate --llm` finds facts that cannot both be true; the model never chooses, you do.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No conflict.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading conflicts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} shown · {n_open} open</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a conflict to see its facts side by side.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Conflict #{id} · {project} — {reason}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open: 1 / 2 keep a fact, M merge, X reject all (each asks for a reason).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resolved ({resolution}) by {resolved_by} · {0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Why keep {0} (“{1}”)? Enter to confirm, Esc to cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep {0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keeping a fact needs a reason</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Why reject them all? Enter to confirm, Esc to cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reject all</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rejecting them all needs a reason</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A merge needs the new statement: type it, then Enter.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Why merge them into this statement? Enter to confirm, Esc to cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Merge</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A merge needs a reason</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Conflict #{0} resolved: {what}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> — “{statement}” is approved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (signed in the audit log).</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ContentTab</name>
    <message>
        <source>Edit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit the whole SKILL.md (front matter included)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Commit message: what changed and why</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save as new version</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Discard</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SKILL.md · v{version} · {author} · {message}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Editing…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (fork for {project})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SKILL.md of {name}{where} has unsaved changes. Save them as a new version?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>edited in the app</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saving {name}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No change: the content is identical to the current version.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved as v{version}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved {name} v{version}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>CorporaModel</name>
    <message>
        <source>Corpus</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Documents</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Indexed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Embedder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dims</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>State</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stale: {reason}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>up to date</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>DiffCanvas</name>
    <message>
        <source>… {n} unchanged line{0} (click to show)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>DiffView</name>
    <message>
        <source>Previous change (Alt+Up)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next change (Alt+Down)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Switch between split (side by side) and unified (Alt+V)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open this diff in a window of its own</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next change in the diff</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Previous change in the diff</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Diff: side by side / unified</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Computing diff</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Diff</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unified</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Split</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{summary} · change {0} of {n}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show all unchanged lines</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Split (side by side)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy the old text (left)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy the new text (right)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>DiscoverView</name>
    <message>
        <source>Skill</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Source</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Score</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Installed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Description</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A folder, a git checkout or URL, a zip, or a .claude-plugin/marketplace.json</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add source</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rescan</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No sources yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search the marketplaces: what should the skill do?  (Ctrl+L)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The project the compatibility note and a fork are for</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a skill to see what it needs and how it overlaps with your skills.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Install globally</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fork into project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>For:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compatibility note</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Discover: search the marketplaces</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading projects</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Global library</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Project: {p}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Give a folder, a zip, a git URL or a marketplace.json first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Added {name}: {skills} skill(s){skipped}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Adding {where}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scanning marketplaces</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No sources yet: add a folder, a zip, a git URL or a marketplace.json above.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sources: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Searching marketplaces</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{ref}

Reading the skill and the project&apos;s skills…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compatibility of {name}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>  (plugin {plugin})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pick a project under For: first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>into project {project}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Installing {name}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Installing {name} {where} — wait for it to finish</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Installed {name} {where} from {source}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>DocumentView</name>
    <message>
        <source>{position} · the quote is no longer in this document</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{position} · line {line} · O: next provenance · Esc: close</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>EditApproveDialog</name>
    <message>
        <source>Approve proposal #{id} with edits</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit the proposed SKILL.md of {skill} before approving it. Approve with edits makes your text the new version; the edit is recorded in the signed decision.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approve with edits</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approve your edited text (Ctrl+Enter)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reset to proposed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The edited SKILL.md is empty: write the content to approve, or Cancel.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ErrorDialog</name>
    <message>
        <source>Unexpected error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{job_name} failed: {error_type}: {0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This is a bug or an environment failure. The details are in {log_path}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy details</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show details</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copied</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ErrorScreen</name>
    <message>
        <source>{APP_NAME} — cannot open the workspace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The workspace could not be opened</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Retry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restore this backup</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Put the newest backup in place (the damaged file is kept aside), then open</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check the workspace folder and its lorekeeper.toml, then retry.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What to do: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restore {backup}, keep the damaged file aside, then open</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restore {backup}?

The damaged database is renamed aside (never overwritten or deleted); changes made after the backup was taken are not in it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restoring the backup…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restoring the backup</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restored {backup}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> The damaged file is kept as {kept}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> Opening…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The restore did not happen: {0}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>EvalHistoryModel</name>
    <message>
        <source>When</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Skill</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Result</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Source</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Footnote</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading eval history</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(rules file)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>every rule passed</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>EvalsPanel</name>
    <message>
        <source>Load file…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run the skill&apos;s rules on this response (Ctrl+Enter); the run is recorded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paste or type the model&apos;s answer here, or load it from a file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Skill:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Project:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run an eval</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Result</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Passed and failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Passed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search responses and footnotes…  (Ctrl+F)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Eval history: {exc}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pass rate per day, last {CHART_DAYS} days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Selected run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a run in the table to see its response and rule results.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The selected run&apos;s response.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>History</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evals</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Binary, deterministic checks of an answer against a skill&apos;s rules. Failed rules make the footnote; a run succeeds when no warning rule fails.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading skills</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Global</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Any skill</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Any project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The library has no skill yet: import one in the Skills panel first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Load a response</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Text files (*.txt *.md *.json);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{name} is larger than {0} MB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading {name}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Eval {skill}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This skill has no eval rules yet: add some in Skills → Evals.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every rule passed — no footnote.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No rules to check.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pass-rate chart</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{total:,} run{0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run #{id} · {0}{version}{scope} · {when} · {source}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>EventsModel</name>
    <message>
        <source>Line</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time (UTC)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Story</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>valid</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tombstone (erased)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>BAD SIGNATURE</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>EDITED CONTENT</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>FactEditor</name>
    <message>
        <source>globs, comma-separated (empty: everywhere), e.g. db/migration/**, *.sql</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save (Enter)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel (Esc)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Statement</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Confidence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scope</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit the fact</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>FactsModel</name>
    <message>
        <source>Type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Statement</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Conf.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Docs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scope</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading facts</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>FactsPanel</name>
    <message>
        <source>All projects</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All types</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All documents</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Any scope</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Everywhere (no scope)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scoped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add fact… (Ctrl+N)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Extract</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Extract facts from the documents not extracted yet, with the configured model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bulk approval by filter in the review queue</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the quote in its document (again: the next provenance)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add a fact by hand (its document and a verbatim quote)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quote (O)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the quote highlighted in its document (O again: the next provenance)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Facts review</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Typed, scoped, sourced facts from your documentation: approve what a newcomer would need, reject the rest with a reason. Press O for the quote in its document, ? for the keyboard shortcuts.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No candidate fact to review. Ingest documentation with `lorekeeper facts ingest PATH`, then Extract (a model is needed), or add a fact by hand (Ctrl+N).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No fact matches these filters.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading fact filters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{candidate} candidate · {approved} approved · {rejected} rejected · {conflicting} conflicting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p&gt;Select a fact to see its statement, scope, confidence and where it comes from.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>quote {0} of {n}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opening the document</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approve the {n} candidate fact{0} matching the current filter? (Ctrl+Z undoes it)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>undo in the review queue</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approved {n} fact{0}: Ctrl+Z puts them back in the queue</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Done.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edited: {statement}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (now {id})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>edited in the review queue</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit fact</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Added {id}: {statement}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Merged into the older fact {id} (lexical consolidation): {statement}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add fact</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Extraction done: {n_kept} fact(s) kept, {n_dropped} dropped (see the run report).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{0}: extraction needs a model — {1}. Configure one in the model settings (or `lorekeeper llm`), or add facts by hand (Ctrl+N).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Extracting facts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Extraction cancelled: nothing was stored.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>FailClosedScreen</name>
    <message>
        <source>Lorekeeper — stopped: audit key unavailable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lorekeeper has stopped: the audit key is unavailable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Settings…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Retry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{0} · cause: {1}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Provider: {provider}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>
Workspace: {workspace_root}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What to do: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key: {provider} — failed closed ({0})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checking…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading the audit key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Settings saved. Press Retry to start with them.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>FixItDialog</name>
    <message>
        <source>Fix It</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save rule and send fix</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The correction, as a rule every next prompt will carry</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>IssuesModel</name>
    <message>
        <source>File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Line</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Problem</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Details</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>JobTracker</name>
    <message>
        <source>{name} is running on this {kind} — wait for it to finish or cancel it (Cancel in the status bar)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cancelling {name}…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>KeyStateLabel</name>
    <message>
        <source>Key: …</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading the audit key state</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>LLMSettingsDialog</name>
    <message>
        <source>Model settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>empty: the provider&apos;s default</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Provider</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Server URL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Timeout</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Retries</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Max answer tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>claude program</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Anthropic API key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Secrets never go to lorekeeper.toml: the key is stored in the OS keyring.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>empty: {0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Looking up the API key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saving model settings</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>LearningDialog</name>
    <message>
        <source>Edit learning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add learning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(no project)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rule</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Story</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Domain</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tags</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scope</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>LearningsModel</name>
    <message>
        <source>When (UTC)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Source</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scope</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rule</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tags</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading learnings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>story {story}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>domain {domain}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>LearningsPanel</name>
    <message>
        <source>Any source</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Any scope</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Active</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Archived</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Active and archived</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search rules, stories, domains, tags…  (Ctrl+F)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Archive</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restore</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import learnings.md…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export learnings.md…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Learnings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rules learnt from corrections. A project&apos;s prompts carry its active rules (and the global-scope ones), newest first, within 2,000 characters.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading projects</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All projects</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{total:,} learning{0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Archive {n}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restore {n}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved learning {id}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saving learning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restored</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{verb} learnings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{verb} {n} learning{0}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import learnings.md</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Markdown (*.md);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; {n} line(s) between the rules kept as text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Imported {added} learning(s) into {0}, {unchanged} already there{skipped}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Importing learnings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export learnings.md</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Markdown (*.md)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exporting learnings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wrote {n} learning(s) of {0} to {path}.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>LedgerFilesModel</name>
    <message>
        <source>File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Relevance</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mode</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Original</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dropped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Why this mode</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>
whole bodies: {0}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>LedgerPanel</name>
    <message>
        <source>Source folder to pack</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Task, e.g. fix the NaN bug in entropy.rs (optional)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pack</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Folder:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Task:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Budget:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Window:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mode:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a folder (and a task), then press Pack to see what an agent would receive, file by file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>window: empty</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Re-injection plan and suggestions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens by file and mode</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Original</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compression ledger</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What a context pack sends for a task: relevance from the task&apos;s words, the import and call graphs (heat diffusion + PageRank), Boltzmann token budgets, and a mode per file. The budget is never exceeded and the pack is never larger than the files; every file&apos;s header says its mode and the tokens dropped. Same engine as `lorekeeper ctx pack`.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Folder to pack</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a folder to pack first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>starting…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Packing {name}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cancelling…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pack cancelled: nothing changed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pressure: —</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>done in {seconds:.2f}s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{task_type}, scope {scope}, specificity {specificity}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no task</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} files: {input_tokens:,} → {output_tokens:,} tokens ({0:.1%} less, limit {cap:,}) · {task}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{used:,} of {window:,} tokens ({utilization:.1%})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pressure: {pressure} (compress from {PRESSURE_COMPRESS:.0%}, evict from {PRESSURE_EVICT:.0%})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{path}: {from_mode} → {to_mode} (frees {saves:,} tokens)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>protected (task targets): {0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No re-injection needed: the window is below the compress level.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing left to downgrade: every file still in the window is a target of the task.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>suggest: {d}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sent: {mode}, {sent_tokens:,} tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Original: {rel}, {original_tokens:,} tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading file</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Lorekeeper — {name}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Workspace: {name}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model: {provider}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel the running jobs (the arrow: one of them)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel {name}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Idle</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} job{0}: {names}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{name} failed — {0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(not written: {log_exc})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{name} failed — ERR_INTERNAL: {error_type}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Go to {title}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refreshed</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MemoryPanel</name>
    <message>
        <source>Rebuild indexes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rebuild every corpus&apos;s FAISS index from the store (progress and Cancel in the status bar)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Injection preview</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clarify</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Measures</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Corpora and indexes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Research notes, validated clarification summaries (never their verbatim) and learnings, indexed with FAISS and BM25. Each story starts with exactly 5 learnings + 3 notes + 3 clarifications, traced and signed before they are injected.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search the memory (BM25 + vectors, fused)…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Corpus</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Impact</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Story:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PD-42</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Story</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Domain</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Summarise (no personal data kept)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The structured summary appears here for your validation.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Validate  (Ctrl+Return)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reject  (Esc)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last {d} days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Window:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stories</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rebuilding memory indexes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Indexes rebuilt.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Searching the memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No story yet: `lorekeeper story start STORY --domain D --project P`.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(no traced injection for this story)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The block of the story&apos;s latest traced injection, as the agent received it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Summarising the clarification</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saving the clarification</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved {path} (kept until {retention_until}).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rejected: nothing was kept.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory measures</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>OpeningScreen</name>
    <message>
        <source>{APP_NAME} — opening the workspace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opening workspace…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the workspace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading the configuration…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop waiting: back to a screen with Retry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quit</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>PagedRowsModel</name>
    <message>
        <source>Loading</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Click to sort every row by {0} (click again to reverse)</source>
        <extracomment>column -&gt; the service&apos;s `order_by` name; a header without one does not sort</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This column does not sort</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>PassRateChart</name>
    <message>
        <source>pass %</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>PlaygroundPanel</name>
    <message>
        <source>Model settings…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Project:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Message to the model, e.g. “review this PR for XSS”  (Ctrl+Enter sends)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send the assembled prompt to the model (Ctrl+Enter)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send the message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Routed skills: —</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Assembled prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The prompt the model will get: SKILLS_HINT, LEARNINGS, then your message.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model&apos;s answer streams here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fix It</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write the correction: it becomes a learning and the fix request is sent at once</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Thumbs up</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Good answer (positive feedback for the routed skills)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Thumbs down</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bad answer: negative feedback and a learning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Playground</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Talk to the configured model through Lorekeeper: the router hints skills, learnings ride along, evals check each answer. Fix It and thumbs down turn a bad answer into a rule for every next prompt.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading playground</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Example</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Eval: all rules passed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>   (example answer: no model call)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model: {provider}{model}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model unavailable — {reason}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Assembling prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Routed skills: {skills}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Routed skills: none (no trigger or keyword matched)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, {dropped} left out by the 2,000-character budget</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n:,} characters · {n2} learning{0}{dropped}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type a message first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Asking the model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Eval: no skill routed, nothing to check</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Answer {interaction}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>From the command line: lorekeeper feedback up|down {interaction}, lorekeeper fixit {interaction} --rule TEXT</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sending the fix</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Learning {id} saved: {rule}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saving feedback</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Thanks: positive feedback recorded.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Negative feedback recorded; learning {id} saved: {rule}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model: {provider}{shown}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ProposalsModel</name>
    <message>
        <source>Skill</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Source</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Benchmark</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reason</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ProposalsPanel</name>
    <message>
        <source>Run nightly</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Find underperforming skills now and write template proposals (no model)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sage analyze</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ask the model for better versions of up to 5 skills; each is benchmarked</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run benchmark (B)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Undo the decision (an approval restores the backed-up version)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run the A/B benchmark of the selected proposal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit &amp;&amp; approve (E)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit the proposed SKILL.md, then approve your edit (signed with the decision)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Proposals</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Skill improvements waiting for your decision: from the nightly analysis (templates, no model) and from Sage (model-written, benchmarked). Approve keeps the current version in the skill&apos;s history; press ? for the keyboard shortcuts.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading proposals</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{pending} pending · {approved} approved · {rejected} rejected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No pending proposal. Run the nightly analysis (or `lorekeeper nightly`) to look for underperforming skills, or ask Sage.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No {status} proposal.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No proposal yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last {kind} run #{run_id} ({0} UTC): {skills_checked} skill(s) checked, {n} underperforming, {n2} proposal(s) created, {n3} skipped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, {n} error(s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p&gt;Select a proposal to see its card and the change it makes.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Benchmark: {text}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Benchmark: not run (press B)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Current (v{base_version})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Proposed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (now v{applied_version})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Proposal #{id} is {status}: only a pending proposal can be approved.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approved with your edits</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>: now v{applied_version}, v{base_version} kept in its history</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>: pending again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{what} proposal #{id}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nightly analysis</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nightly analysis running — the next run can start when it finishes (or cancel it in the status bar)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sage analysis</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sage analysis running — the next run can start when it finishes (or cancel it in the status bar)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sage run cancelled.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Benchmark #{id} of proposal #{proposal_id}: {badge}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Benchmark #{id}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Benchmark running on proposal #{id} — approve or reject it when it finishes, or cancel it (Esc)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Benchmark cancelled: nothing was stored.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>PurgePanel</name>
    <message>
        <source>Story id (e.g. PD-42): filters the history, shows what a purge erases</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Purge story…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Verify again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>History</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Retention preview</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run retention now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Purge runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GDPR erasure (right to be forgotten) and the daily retention of clarification summaries: each run erases store rows, FAISS vectors, embedding rows, cache entries, session-log events (replaced by signed tombstones, so the chain still verifies) and the markdown summary, then verifies every artefact byte for byte.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading purge runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{story}: a purge now erases {what}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{story}: nothing is stored for it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type a story id to see what a purge of it would erase.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Purge {story}…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{story} — expired {retention_until}: {0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{story} — kept until {retention_until}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The next daily run erases {due} summar{0} (retention_until before {today}; a summary is kept on its last day).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> Next expiry: {story} after {retention_until}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing is stored for this story: there is nothing to purge.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type a story id first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No purge run erased a story like {story!r}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{total:,} run{0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a run to see what it erased and how it was verified.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run #{id} ({mode}) by {0}, started {started_at}, </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>verified {verified_at}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not verified yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>remains: {r}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>note: {n}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Counting {story}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Purge {story}?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Purging {story}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Erase the summaries past their retention date?

</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run retention now?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Retention purge</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{name} in progress — a new purge can start when it finishes (cancelled, it resumes from its journal at the next run)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nothing due</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Purged {who}: {0}. Verified.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ERR_PURGE_INCOMPLETE: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Verifying purge #{id}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Purge #{id} verified again: nothing of {0} is back.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ERR_PURGE_INCOMPLETE: purge #{id}: </source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>QualityPanel</name>
    <message>
        <source>Window:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Project:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Success rate per day — all skills</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>success %</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Feedback per day (thumbs up above, thumbs down below)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quality</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Skill health per skill scope (the global skill or a project&apos;s fork) from the answers since its current version and its last reviewed proposal: applied count, success rate (no warning rule failed) and feedback. Underperforming: applied ≥ {MIN_APPLIED} and success &lt; {0} or more thumbs down than up — the skills the nightly run proposes to fix. Worst first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading projects</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All projects</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading quality</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} skill(s) used · {bad} underperforming</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Success rate per day — {0}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ReasonDialog</name>
    <message>
        <source>What was wrong?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Optional: what the model should do instead</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The answer gets negative feedback and a learning is saved.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ResultsModel</name>
    <message>
        <source>Score</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Title</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Id</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Details</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ResultsTableModel</name>
    <message>
        <source>Result</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rule</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Severity</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ReviewQueue</name>
    <message>
        <source>No {noun} to review.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This decision needs a reason</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approve (A)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reject (R)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit (E)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Undo ({0})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Undo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approve all (Shift+A)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approve every open item of the current filter (asks first)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>◀ Prev ({0})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next ({0}) ▶</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keyboard shortcuts (?; F1 lists every shortcut of the app)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Why is it rejected? (Enter to reject, Esc to cancel)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reject</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reason:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approve the selected {noun}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reject: type the reason, Enter to confirm, Esc to cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit the selected {noun}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next {noun} (also ↓)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Previous {noun} (also ↑)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show or hide this cheat-sheet (F1: every shortcut of the app)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel the reason or the editor, hide the cheat-sheet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;table&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;/table&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{reviewed} of {whole} reviewed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing to review</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{noun} {0} of {remaining}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelling the job on this {noun}…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A rejection needs a reason</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{reason_missing}: type it, then Enter.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No open {noun} in this filter.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approve all</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing to undo.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RouteTableModel</name>
    <message>
        <source>Skill</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Score</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Matched triggers (×2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Matched keywords (×1)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RouterPanel</name>
    <message>
        <source>Router</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Which skills would a message call for, and why? Advisory only: the router never hides a skill.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Score = 2 × triggers matched + 1 × keywords matched. In a library where some skills carry no router words, both kinds are ranked on one calibrated scale (route --json shows the parts).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type or paste a message to an agent, e.g. “review this PR and write tests”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>top </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Project:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Matched words are highlighted here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;span style=&quot;background:{0}&quot;&gt;&amp;nbsp;trigger&amp;nbsp;&lt;/span&gt;&amp;nbsp;&amp;nbsp;&lt;span style=&quot;background:{1}&quot;&gt;&amp;nbsp;keyword&amp;nbsp;&lt;/span&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The SKILLS_HINT block appears here when at least one skill scores.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy hint</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Matched words in the message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ranked skills</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hint block injected into the prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Route a message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trigger evals</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run trigger evals</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Route every skill&apos;s trigger cases over the whole library (the project chosen in the other tab) and score each skill: does it fire on its cases, and only on them?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Optimise selected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ask the model for description and router-word edits of the selected skill, scored on its trigger cases (a held-out part kept apart); the best one that lowers nothing is queued as a proposal in Proposals</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No trigger evals run yet. A skill&apos;s trigger cases live in {0} in its folder ([{{&quot;query&quot;: &quot;...&quot;, &quot;should_trigger&quot;: true}}, ...], skill-creator&apos;s shape); `lorekeeper skills suggest NAME --triggers` writes them from its description and history.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a skill: its confusions and collisions appear here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Routing the trigger cases…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trigger evals failed: {exc}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No skill has trigger cases ({0} in its folder).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} skills, {cases} cases, {wrong} confusions (a skill fires when it is in the top {top})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; {n} trigger file(s) do not parse: {message}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>precision {0}, recall {1}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no candidate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{name}: nothing proposed ({verdicts})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{name}: proposal #{id} queued; held-out {0} → {1}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Optimising {name} with the model…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Optimise {name}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Optimise {name} failed: {exc}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;{0}&lt;/b&gt;: {tp} hit, {fn} missed, {fp} false, {tn} rightly left alone</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Collisions&lt;/b&gt; (also fire on its should-trigger cases): </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;li&gt;missed “{q}”: taken by {0}&lt;/li&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;li&gt;fired on “{q}” (rank {rank}), should not&lt;/li&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No confusion: every case answered as expected.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading projects</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Routing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Routing failed: {exc}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} skill{0} hinted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no skill hinted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SKILLS_HINT copied to the clipboard</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RuleDialog</name>
    <message>
        <source>Edit rule</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add rule</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a short unique id, e.g. cr-006</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>what the footnote shows, e.g. “Mentions rollback”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. \brollback\b</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>i  ignore case</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>m  multi-line</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>s  dot matches newline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Severity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pattern</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Flags</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>another rule already has this id</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>missing &apos;value&apos;</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RulesTab</name>
    <message>
        <source>No eval rules yet — add one with Add rule…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add rule…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Try a response: paste an answer here and each rule above shows pass or fail.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rules</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Try a response</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The rule being edited has unsaved changes. Save them as a new version?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checking the response</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every rule passed — no footnote.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No rules to check.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>added rule {id}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>edited rule {id}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete rule</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete rule {id} ({label})? A new version is saved.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>deleted rule {id}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saving rules of {name}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RulesTableModel</name>
    <message>
        <source>Result</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Severity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Value / pattern</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RunsModel</name>
    <message>
        <source>Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Proposal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Skill</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Improvement</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>When</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Started</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mode</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stories</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Store</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Emb.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cache</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sessions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading purge runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(nothing due)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ScoreChart</name>
    <message>
        <source>combined /10</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SkillHealthModel</name>
    <message>
        <source>Skill</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scope</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Applied</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Success</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Up</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Down</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Health</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Underperforming: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Too few uses (&lt; {MIN_APPLIED})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Healthy</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SkillTableModel</name>
    <message>
        <source>Skill</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ver.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rules</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Triggers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fork for project {project}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>
Forked by at least one project.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{name} ({scope}), v{version}, {rules_count} rules
{description}
Triggers: {0}
Keywords: {1}{forked}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SkillsPanel</name>
    <message>
        <source>Search name, description, triggers…  (Ctrl+F)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All skills, global skills only, or what one project sees (its forks replace globals)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading the library…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Skill folder…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Zip archive…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fork to project…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete fork</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scope:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ask the model for a better version of this skill: a proposal, benchmarked, waiting in Proposals (lorekeeper sage analyze --skill NAME)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open proposal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Content</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evals</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Versions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a skill on the left to see its content, rules and history.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Skills</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every change is a new version. Global skills serve every project; a project fork ({FORK_MARK}) overrides a skill&apos;s content and rules for that project.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Library</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Discover</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading projects</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All skills</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Global only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Project: {p}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading skills</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} skill{0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No skill matches “{search}”. Search looks at names, descriptions, triggers and keywords.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The library is empty — import a skill folder or a zip with Import…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading {name}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{FORK_MARK} fork · project {project}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>v{version} · {rules_count} rules · triggers: {0} · keywords: {1}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sage on {name}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sage is working on {name}{where} — edits wait until it finishes, or cancel it (Cancel in the status bar)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sage on {name} cancelled: nothing was proposed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sage on {name} cancelled; proposal #{pid} stays pending (not benchmarked).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Looking for the proposal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sage on {name} failed — {code}: {error}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · benchmark: {badge}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · benchmark failed: {error}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sage proposed #{proposal} for {name}: {reason}{badge}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no target</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sage proposes nothing for {name}: {why}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sage on {name}: done</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open proposal #{pid}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import a skill folder (or a folder of skill folders)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import skills from a zip</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Zip archives (*.zip)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> into project {project}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Imported {name}{where}: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nothing to do</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Imported {name}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>imported from {name}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Importing {name}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Importing {name} — the next import can start when it finishes, or cancel it (Cancel in the status bar)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fork to project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fork {name} for project (pick one or type a new name):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Forking {name}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Forked {name} for {project} (v{version})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete the fork of {name} for project {project}, with its whole history? The global skill stays.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deleting fork of {name}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deleted the {project} fork of {name}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TokensChart</name>
    <message>
        <source>sent: {mode}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TriggerTableModel</name>
    <message>
        <source>Skill</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cases</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Precision</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recall</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Collisions (other skills firing on its cases)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>VersionTableModel</name>
    <message>
        <source>Version</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Author</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Message</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>VersionsTab</name>
    <message>
        <source>Restore selected version…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>History (newest first)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (current)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restore v{version}…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SKILL.md + rules</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only one version: nothing to compare yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Same version on both sides.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No difference.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>computing diff…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{path}: no difference.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading {path}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restore version</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restore {name} v{version}? It becomes a new version; history is kept.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restoring {name} v{version}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restored v{old} as v{version}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restored {name} v{old} as v{version}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>_Launcher</name>
    <message>
        <source>Opening the workspace</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>app</name>
    <message>
        <source>Create the workspace with `lorekeeper init DIR` (add --demo for sample data), or open another one with `lorekeeper --workspace DIR`.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check [store] url in lorekeeper.toml, that the database file is readable, and that no other program holds it locked.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fix the file named above (lorekeeper.toml is TOML), then retry.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opening was stopped before it finished. Retry opens the workspace again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Provision the audit key (`lorekeeper audit init-key`) or check the keyring/Vault settings in [audit], then retry.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restore the newest backup (the button below, or the command above): the damaged file is renamed aside, never overwritten, and the workspace opens on the restored copy.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Another process is restoring this workspace: retry in a moment.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>There is no backup to restore. Quit, salvage the damaged file with sqlite3&apos;s .recover (the command above), restore the result with `lorekeeper restore`, then retry.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opening the workspace (configuration, store, migrations)…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading the audit key…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Building the window…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ask</name>
    <message>
        <source>Global (no project)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ask a question about this workspace&apos;s knowledge: skills, learnings, facts and the documents under sources/ (research notes too) and clarifications/. Answers cite the exact passages they come from.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;[{n}]&lt;/b&gt; &lt;code&gt;{0}&lt;/code&gt; lines {start}–{end} &lt;span style=&apos;color:gray&apos;&gt;({1}, score {score:.2f})&lt;/span&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p&gt;{head}&lt;br&gt;&lt;span style=&apos;font-family:monospace&apos;&gt;{body}&lt;/span&gt;&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>audit</name>
    <message>
        <source>Install or unlock an OS keyring (GNOME Keyring / Secret Service, KWallet, macOS Keychain), or switch to the Vault provider in Settings. Then press Retry.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unseal Vault (`bao operator unseal` or `vault operator unseal`), then press Retry.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start Vault or fix its address in Settings (VAULT_ADDR overrides it), then press Retry.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Provision the key with `lorekeeper audit init-key` (an operator action: Lorekeeper never creates a Vault key silently), then press Retry.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The stored key must be 64 hexadecimal characters (32 bytes). Restore the right value in the provider, then press Retry.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check the Vault token or AppRole and its policy on the key&apos;s path (Settings), then press Retry.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Set VAULT_TOKEN before starting Lorekeeper, or store a token in the OS keyring (Settings), then press Retry.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fix the [audit] table of lorekeeper.toml (Settings), then press Retry.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lorekeeper fails closed: without its audit key it cannot sign what it decides, so it does nothing until the key loads. It never falls back to another provider.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key: {provider} v{key_version}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (v{pending_version} from next launch)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key: {provider} — failed closed ({0})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key: {provider} (not loaded)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> {0} more break(s) after it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The audit chain has a break: {0} — {message}.{more} Signed writes go on after it. Look into it (Verify chain lists every problem), then acknowledge it with a reason: a signed break_acknowledged event records who, when and why. A new break is reported again.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>benchmarks</name>
    <message>
        <source>How a benchmark decides: the current and the proposed content each answer the same scenarios (3 by default: yours first, then the model&apos;s) through the configured model. Each answer gets the skill&apos;s deterministic eval rules (share passed × 10) and an LLM judge&apos;s 1-10 score, asked twice with the two answers swapped and their labels hidden; a judge that changes its mind when the order is swapped counts as a tie. Combined = 60% evals + 40% judge. The verdict is PASSED when the new content wins more scenarios, FAILED when it wins fewer, TIE otherwise; improvement = (new − old) / old × 100.

Runs need a model: configure one in Playground → Model settings (anthropic, ollama or claude-cli).</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>conflicts</name>
    <message>
        <source>Open</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resolved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p style=&apos;font-size:12pt; font-weight:600&apos;&gt;{letter}. {0}&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p&gt;{0} · confidence {confidence:.2f} ({1}) · scope {scope} · {corroboration} document{2}&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p style=&apos;margin-left:6px&apos;&gt;&lt;b&gt;{0}&lt;/b&gt;&lt;br&gt;&lt;i&gt;“{1}”&lt;/i&gt;&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p style=&apos;color:{0}&apos;&gt;&lt;code&gt;{1}&lt;/code&gt;&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>diffview</name>
    <message>
        <source>computing diff…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>evals</name>
    <message>
        <source>All time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last 24 hours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last 7 days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last 30 days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No eval runs yet — run one above, or use `lorekeeper eval` from a script.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No eval run matches these filters. Widen the time range or clear the search.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pick a skill, paste a response and press Run: each rule shows pass or fail here.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>facts</name>
    <message>
        <source>Any confidence</source>
        <extracomment>(label, (min, max)) — the seed&apos;s confidence bands</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>0.9+ stated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>0.6–0.89 deduced</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>below 0.6 fragile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stated explicitly</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>deduced from an example</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fragile inference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Candidates</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rejected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Conflicting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>everywhere (no scope)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p style=&apos;font-size:13pt; font-weight:600&apos;&gt;{0}&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;table cellspacing=&apos;0&apos; cellpadding=&apos;2&apos;&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;tr&gt;&lt;td&gt;&lt;b&gt;Type&lt;/b&gt;&lt;/td&gt;&lt;td&gt;{0} &lt;span style=&apos;color:{1}&apos;&gt;— {2} (weight {3:.2f})&lt;/span&gt;&lt;/td&gt;&lt;/tr&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;tr&gt;&lt;td&gt;&lt;b&gt;Confidence&lt;/b&gt;&lt;/td&gt;&lt;td&gt;{confidence:.2f} ({0}) · corroborated by {corroboration} document{1} · pack score {score:.3f}&lt;/td&gt;&lt;/tr&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;tr&gt;&lt;td&gt;&lt;b&gt;Status&lt;/b&gt;&lt;/td&gt;&lt;td&gt;&lt;span style=&apos;color:{0}; font-weight:600&apos;&gt;{1}&lt;/span&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> by {0} · {1}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · in conflict #{conflict} (Conflicts panel)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p style=&apos;color:{0}&apos;&gt;⚑ {1}&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Provenance&lt;/b&gt; ({n}) — press &lt;b&gt;O&lt;/b&gt; to see the quote in its document&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p style=&apos;margin-left:8px&apos;&gt;{i}. &lt;b&gt;{0}&lt;/b&gt;&lt;br&gt;&lt;i&gt;“{1}”&lt;/i&gt;&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>learnings</name>
    <message>
        <source>No learnings yet. Fix It and thumbs down in the Playground create them; Add or Import brings your own.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No learning matches these filters.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ledger</name>
    <message>
        <source>fix the budget overrun when a pack downgrades files</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>main_window</name>
    <message>
        <source>Show this list of keyboard shortcuts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search in the current panel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refresh the current panel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tab / Shift+Tab</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next / previous field (Tab leaves a table; the arrows move inside it)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next tab inside a panel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quit Lorekeeper</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memory</name>
    <message>
        <source>Problem / user need</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Success criteria</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Known constraints</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Priorities (must-have / nice-to-have)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>panels</name>
    <message>
        <source>Skills</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evals</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Router</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Playground</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Learnings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quality</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Proposals</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Benchmarks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Facts review</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Conflicts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ask</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compression ledger</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Purge runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Audit</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>playground</name>
    <message>
        <source>No project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>✂ Cut at max_tokens: the answer is incomplete (raise [llm] max_tokens in Settings)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>proposals</name>
    <message>
        <source>Pending</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rejected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fork of project {0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>global skill</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p style=&apos;font-size:13pt; font-weight:600&apos;&gt;Improvement proposal #{id}&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;table cellspacing=&apos;0&apos; cellpadding=&apos;2&apos;&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;tr&gt;&lt;td&gt;&lt;b&gt;Skill&lt;/b&gt;&lt;/td&gt;&lt;td&gt;{0} ({scope}, from v{base_version})&lt;/td&gt;&lt;/tr&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;tr&gt;&lt;td&gt;&lt;b&gt;Metrics&lt;/b&gt;&lt;/td&gt;&lt;td&gt;{0}: applied {applied_count}, success {rate}&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;&lt;b&gt;Feedback&lt;/b&gt;&lt;/td&gt;&lt;td&gt;{feedback_positive} up / {feedback_negative} down&lt;/td&gt;&lt;/tr&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Failing rules:&lt;/b&gt; </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Related learnings:&lt;/b&gt;&lt;br&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Related learnings:&lt;/b&gt; none&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;{0}&lt;/b&gt; by {1} · {when}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · now v{applied_version}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>purge</name>
    <message>
        <source>store rows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FAISS vectors</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>embedding rows (.npy)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>index cache entries</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>session-log events (signed tombstones)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>clarification summary files</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No purge run yet. Type a story id above and press Purge to erase it from every artefact, or let the daily retention run erase the summaries past their retention date.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Erase story {story} from every artefact? This cannot be undone.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Then every artefact is verified and a signed clarification_purged event records the counts.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>quality</name>
    <message>
        <source>Last 7 days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last 30 days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last 90 days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No quality events in this window. Every answer in the Playground (or `lorekeeper llm ask`) records the skills it was routed to, their eval outcome and your feedback.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>router</name>
    <message>
        <source>Global (no project)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type a message above: the skills it calls for appear here, ranked, with the words that matched.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No skill matches this message. The router only hints skills whose triggers or keywords appear as whole words — try the words an operator would use, e.g. “review”, “deploy”, “migration”.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;span style=&quot;background:{bg}; font-weight:600&quot;&gt;{0}&lt;/span&gt;</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>rule_dialog</name>
    <message>
        <source>A whole number (Unicode code points for lengths, inclusive).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Several values separated by commas.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A Python regular expression, searched anywhere in the response.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This rule type needs no value.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Literal text, case-sensitive unless the type starts with &apos;i&apos;.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>skill_tabs</name>
    <message>
        <source>

# ---- evals.json ----
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(mode {mode:o})
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>binary file, {size} bytes, sha256 {0}
</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>widgets</name>
    <message>
        <source>field &apos;{field}&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rule {rule_id}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
