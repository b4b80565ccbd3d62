<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="fr">
<context>
    <name>ActionBar</name>
    <message>
        <source>Approve (A)</source>
        <translation>Approuver (A)</translation>
    </message>
    <message>
        <source>Reject (R)</source>
        <translation>Rejeter (R)</translation>
    </message>
    <message>
        <source>Edit (E)</source>
        <translation>Modifier (E)</translation>
    </message>
    <message>
        <source>Undo ({0})</source>
        <translation>Annuler ({0})</translation>
    </message>
    <message>
        <source>Undo</source>
        <translation>Annuler</translation>
    </message>
    <message>
        <source>Approve all (Shift+A)</source>
        <translation>Tout approuver (Maj+A)</translation>
    </message>
    <message>
        <source>Approve every open item of the current filter (asks first)</source>
        <translation>Approuver chaque élément ouvert du filtre actuel (demande d&apos;abord)</translation>
    </message>
    <message>
        <source>◀ Prev ({0})</source>
        <translation>◀ Préc. ({0})</translation>
    </message>
    <message>
        <source>Next ({0}) ▶</source>
        <translation>Suiv. ({0}) ▶</translation>
    </message>
    <message>
        <source>History (H)</source>
        <translation>Historique (H)</translation>
    </message>
    <message>
        <source>This session&apos;s decisions, newest first: pick one to undo it (not only the last)</source>
        <translation>Les décisions de cette session, les plus récentes d&apos;abord : choisissez-en une pour l&apos;annuler (pas seulement la dernière)</translation>
    </message>
    <message>
        <source>Keyboard shortcuts (?; F1 lists every shortcut of the app)</source>
        <translation>Raccourcis clavier (?&#xa0;; F1 liste tous les raccourcis de l&apos;application)</translation>
    </message>
    <message>
        <source>Approve {0} (A)</source>
        <translation>Approuver {0} (A)</translation>
    </message>
    <message>
        <source>Reject {0} (R)</source>
        <translation>Rejeter {0} (R)</translation>
    </message>
</context>
<context>
    <name>AddFactForm</name>
    <message>
        <source>One imperative, self-contained sentence</source>
        <translation>Une phrase impérative et autonome</translation>
    </message>
    <message>
        <source>an ingested document, or a file path</source>
        <translation>un document ingéré, ou un chemin de fichier</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Parcourir…</translation>
    </message>
    <message>
        <source>The verbatim quote of the document that supports the fact</source>
        <translation>La citation exacte du document qui étaye le fait</translation>
    </message>
    <message>
        <source>globs, comma-separated (empty: everywhere)</source>
        <translation>globs, séparés par des virgules (vide&#xa0;: partout)</translation>
    </message>
    <message>
        <source>Add fact (Ctrl+Enter)</source>
        <translation>Ajouter le fait (Ctrl+Entrée)</translation>
    </message>
    <message>
        <source>Cancel (Esc)</source>
        <translation>Annuler (Échap)</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Type</translation>
    </message>
    <message>
        <source>Confidence</source>
        <translation>Confiance</translation>
    </message>
    <message>
        <source>Project</source>
        <translation>Projet</translation>
    </message>
    <message>
        <source>Statement</source>
        <translation>Énoncé</translation>
    </message>
    <message>
        <source>Document</source>
        <translation>Document</translation>
    </message>
    <message>
        <source>Quote</source>
        <translation>Citation</translation>
    </message>
    <message>
        <source>Scope</source>
        <translation>Portée</translation>
    </message>
    <message>
        <source>Add a fact by hand</source>
        <translation>Ajouter un fait à la main</translation>
    </message>
    <message>
        <source>Document of the fact</source>
        <translation>Document du fait</translation>
    </message>
</context>
<context>
    <name>AnalysisRuns</name>
    <message>
        <source>Run nightly</source>
        <translation>Analyse nocturne</translation>
    </message>
    <message>
        <source>Find underperforming skills now and write template proposals (no model)</source>
        <translation>Trouver maintenant les skills sous-performantes et écrire des propositions à partir de templates (sans modèle)</translation>
    </message>
    <message>
        <source>Sage analyze</source>
        <translation>Analyse Sage</translation>
    </message>
    <message>
        <source>Ask the model for better versions of up to 5 skills; each is benchmarked</source>
        <translation>Demander au modèle de meilleures versions de 5 skills au plus&#xa0;; chacune passe un benchmark</translation>
    </message>
    <message>
        <source>Nightly analysis</source>
        <translation>Analyse nocturne</translation>
    </message>
    <message>
        <source>Nightly analysis running — the next run can start when it finishes (or cancel it in the status bar)</source>
        <translation>Analyse nocturne en cours — la prochaine pourra démarrer à la fin de celle-ci (ou annulez-la dans la barre d&apos;état)</translation>
    </message>
    <message>
        <source>Sage analysis</source>
        <translation>Analyse Sage</translation>
    </message>
    <message>
        <source>Sage analysis running — the next run can start when it finishes (or cancel it in the status bar)</source>
        <translation>Analyse Sage en cours — la prochaine pourra démarrer à la fin de celle-ci (ou annulez-la dans la barre d&apos;état)</translation>
    </message>
    <message>
        <source>Sage run cancelled.</source>
        <translation>Exécution Sage annulée.</translation>
    </message>
</context>
<context>
    <name>AskPanel</name>
    <message>
        <source>Ask</source>
        <translation>Questions</translation>
    </message>
    <message>
        <source>Questions over the knowledge (BM25 over skills, learnings, documents and facts). The configured model answers from the retrieved passages only and cites them; without one, the passages are ranked.</source>
        <translation>Questions sur la connaissance (BM25 sur les skills, apprentissages, documents et faits). Le modèle configuré répond à partir des seuls passages retrouvés et les cite&#xa0;; sans modèle, les passages sont classés.</translation>
    </message>
    <message>
        <source>Ask a question, e.g. “how do we deploy Citadel?” — Enter asks</source>
        <translation>Posez une question, p. ex. «&#xa0;comment déployer Citadel&#xa0;?&#xa0;» — Entrée pour demander</translation>
    </message>
    <message>
        <source>Answer with the model</source>
        <translation>Répondre avec le modèle</translation>
    </message>
    <message>
        <source>Project:</source>
        <translation>Projet&#xa0;:</translation>
    </message>
    <message>
        <source>Answer</source>
        <translation>Réponse</translation>
    </message>
    <message>
        <source>Passages</source>
        <translation>Passages</translation>
    </message>
    <message>
        <source>Question</source>
        <translation>Question</translation>
    </message>
    <message>
        <source>Loading projects</source>
        <translation>Chargement des projets</translation>
    </message>
    <message>
        <source>Type a question first.</source>
        <translation>Saisissez d&apos;abord une question.</translation>
    </message>
    <message>
        <source>asking…</source>
        <translation>question en cours…</translation>
    </message>
    <message>
        <source>Asking the knowledge</source>
        <translation>Interrogation de la connaissance</translation>
    </message>
    <message>
        <source>&lt;p style=&apos;color:gray&apos;&gt;{0}&lt;/p&gt;</source>
        <translation>&lt;p style=&apos;color:gray&apos;&gt;{0}&lt;/p&gt;</translation>
    </message>
    <message>
        <source>No model answer.</source>
        <translation>Aucune réponse du modèle.</translation>
    </message>
    <message>
        <source>&lt;p&gt;No passage of the knowledge matches the question.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Aucun passage de la connaissance ne correspond à la question.&lt;/p&gt;</translation>
    </message>
    <message numerus="yes">
        <source>%n passage(s)</source>
        <translation>
            <numerusform>%n passage</numerusform>
            <numerusform>%n passages</numerusform>
        </translation>
    </message>
    <message>
        <source>, {n} cited</source>
        <translation>, {n} cité(s)</translation>
    </message>
</context>
<context>
    <name>AuditPanel</name>
    <message>
        <source>Provider:</source>
        <translation>Fournisseur&#xa0;:</translation>
    </message>
    <message>
        <source>Where:</source>
        <translation>Emplacement&#xa0;:</translation>
    </message>
    <message>
        <source>Key version:</source>
        <translation>Version de la clé&#xa0;:</translation>
    </message>
    <message>
        <source>Loaded at:</source>
        <translation>Chargée à&#xa0;:</translation>
    </message>
    <message>
        <source>Session log:</source>
        <translation>Journal de session&#xa0;:</translation>
    </message>
    <message>
        <source>Folder:</source>
        <translation>Dossier&#xa0;:</translation>
    </message>
    <message>
        <source>Verify chain</source>
        <translation>Vérifier la chaîne</translation>
    </message>
    <message>
        <source>Check every event&apos;s signature, the chain and the checkpoints</source>
        <translation>Vérifier la signature de chaque événement, la chaîne et les points de contrôle</translation>
    </message>
    <message>
        <source>Rotate key…</source>
        <translation>Renouveler la clé…</translation>
    </message>
    <message>
        <source>New key version; old versions stay readable for verification</source>
        <translation>Nouvelle version de clé&#xa0;; les anciennes restent lisibles pour la vérification</translation>
    </message>
    <message>
        <source>Audit key (this session)</source>
        <translation>Clé d&apos;audit (cette session)</translation>
    </message>
    <message>
        <source>Press Verify chain: the report per file appears here.</source>
        <translation>Cliquez sur Vérifier la chaîne&#xa0;: le rapport par fichier s&apos;affiche ici.</translation>
    </message>
    <message>
        <source>No verification yet.</source>
        <translation>Aucune vérification pour l&apos;instant.</translation>
    </message>
    <message>
        <source>Verification</source>
        <translation>Vérification</translation>
    </message>
    <message>
        <source>Why the break is acceptable (kept, signed, in the event)…</source>
        <translation>Pourquoi la rupture est acceptable (conservé, signé, dans l&apos;événement)…</translation>
    </message>
    <message>
        <source>Acknowledge break</source>
        <translation>Acquitter la rupture</translation>
    </message>
    <message>
        <source>Write a signed break_acknowledged event naming these breaks</source>
        <translation>Écrire un événement signé break_acknowledged qui nomme ces ruptures</translation>
    </message>
    <message>
        <source>Story…</source>
        <translation>Story…</translation>
    </message>
    <message>
        <source>Type:</source>
        <translation>Type&#xa0;:</translation>
    </message>
    <message>
        <source>Date:</source>
        <translation>Date&#xa0;:</translation>
    </message>
    <message>
        <source>By:</source>
        <translation>Par&#xa0;:</translation>
    </message>
    <message>
        <source>No signed event yet: they appear as Lorekeeper records its decisions.</source>
        <translation>Aucun événement signé pour l&apos;instant&#xa0;: ils apparaissent à mesure que Lorekeeper enregistre ses décisions.</translation>
    </message>
    <message>
        <source>Signed event</source>
        <translation>Événement signé</translation>
    </message>
    <message>
        <source>Select an event to see exactly what was signed.</source>
        <translation>Sélectionnez un événement pour voir exactement ce qui a été signé.</translation>
    </message>
    <message>
        <source>Session log</source>
        <translation>Journal de session</translation>
    </message>
    <message>
        <source>Audit</source>
        <translation>Audit</translation>
    </message>
    <message>
        <source>Every decision is signed (HMAC-SHA256 over RFC 8785 JSON) and chained in the session log; a checkpoint in the store catches a cut tail. Erased events stay in place as signed tombstones.</source>
        <translation>Chaque décision est signée (HMAC-SHA256 sur du JSON RFC 8785) et chaînée dans le journal de session&#xa0;; un point de contrôle dans le store détecte une fin tronquée. Les événements effacés restent en place sous forme de tombstones signés.</translation>
    </message>
    <message>
        <source>Reading the session log</source>
        <translation>Lecture du journal de session</translation>
    </message>
    <message>
        <source>  (rotated to v{pending_version}: used from the next launch)</source>
        <translation>  (renouvelée en v{pending_version}&#xa0;: utilisée au prochain lancement)</translation>
    </message>
    <message>
        <source>not loaded</source>
        <translation>non chargée</translation>
    </message>
    <message>
        <source>failed closed</source>
        <translation>fermé par sécurité</translation>
    </message>
    <message>
        <source>Verifying the audit chain</source>
        <translation>Vérification de la chaîne d&apos;audit</translation>
    </message>
    <message>
        <source>Checking the audit chain</source>
        <translation>Contrôle de la chaîne d&apos;audit</translation>
    </message>
    <message>
        <source>Chain: {0}. Verify chain still lists them; a new break is reported again.</source>
        <translation>Chaîne&#xa0;: {0}. Vérifier la chaîne les liste toujours&#xa0;; une nouvelle rupture sera signalée.</translation>
    </message>
    <message>
        <source>Acknowledging the chain break</source>
        <translation>Acquittement de la rupture de chaîne</translation>
    </message>
    <message>
        <source>{n} chain break(s) acknowledged (signed event break_acknowledged #{seq})</source>
        <translation>{n} rupture(s) de chaîne acquittée(s) (événement signé break_acknowledged n° {seq})</translation>
    </message>
    <message>
        <source>Chain verified: {events} events in {files} file(s), {valid} valid, {tombstones} tombstone(s).</source>
        <translation>Chaîne vérifiée&#xa0;: {events} événements dans {files} fichier(s), {valid} valides, {tombstones} tombstone(s).</translation>
    </message>
    <message>
        <source>No break: every signature, link and checkpoint verifies.</source>
        <translation>Aucune rupture&#xa0;: tout se vérifie.</translation>
    </message>
    <message>
        <source>ERR_AUDIT_VERIFY_FAILED: {n} problem(s). First: {file} line {line} — {message}</source>
        <translation>ERR_AUDIT_VERIFY_FAILED&#xa0;: {n} problème(s). Premier&#xa0;: {file} ligne {line} — {message}</translation>
    </message>
    <message>
        <source>Rotate the audit key</source>
        <translation>Renouveler la clé d&apos;audit</translation>
    </message>
    <message>
        <source>Create key version {0} in {provider}?

The current version stays archived so every past event still verifies. A signed audit_key_rotated event is written with the new key, and a new audit session starts on it at once: every event from then on is signed with the new version (one key per session).</source>
        <translation>Créer la version {0} de la clé dans {provider}&#xa0;?

La version actuelle reste archivée pour que chaque événement passé soit toujours vérifiable. Un événement signé audit_key_rotated est écrit avec la nouvelle clé, et une nouvelle session d&apos;audit démarre aussitôt avec elle&#xa0;: chaque événement suivant est signé avec la nouvelle version (une clé par session).</translation>
    </message>
    <message>
        <source>Rotating the audit key</source>
        <translation>Renouvellement de la clé d&apos;audit</translation>
    </message>
    <message>
        <source>Key rotation in progress — verify or rotate again once the new key&apos;s session has started</source>
        <translation>Renouvellement de la clé en cours — vérifiez ou renouvelez à nouveau une fois la session de la nouvelle clé démarrée</translation>
    </message>
    <message>
        <source>Key rotated: v{previous_version} → v{new_version}. The audit_key_rotated event is signed with v{new_version}, and so is every event from now on (a new session started on it); v{previous_version} stays readable for verification.</source>
        <translation>Clé renouvelée&#xa0;: v{previous_version} → v{new_version}. L&apos;événement audit_key_rotated est signé avec la v{new_version}, comme chaque événement désormais (une nouvelle session a démarré avec elle)&#xa0;; la v{previous_version} reste lisible pour la vérification.</translation>
    </message>
    <message>
        <source>Audit key rotated to v{new_version}</source>
        <translation>Clé d&apos;audit renouvelée en v{new_version}</translation>
    </message>
    <message>
        <source>The session log cannot be read: {0}</source>
        <translation>Le journal de session est illisible&#xa0;: {0}</translation>
    </message>
    <message numerus="yes">
        <source>%n event(s)</source>
        <translation>
            <numerusform>%n événement</numerusform>
            <numerusform>%n événements</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> in %n file(s)</source>
        <translation>
            <numerusform>, %n fichier</numerusform>
            <numerusform>, %n fichiers</numerusform>
        </translation>
    </message>
    <message>
        <source>Anyone</source>
        <translation>Tout le monde</translation>
    </message>
    <message numerus="yes">
        <source>{n} of %Ln event(s)</source>
        <translation>
            <numerusform>{n} sur %Ln événement</numerusform>
            <numerusform>{n} sur %Ln événements</numerusform>
        </translation>
    </message>
    <message>
        <source> · last {last} UTC</source>
        <translation> · dernier {last} UTC</translation>
    </message>
    <message>
        <source>Only the events of one story, e.g. PD-42 (Ctrl+F)</source>
        <translation>Seulement les événements d&apos;une story, p. ex. PD-42 (Ctrl+F)</translation>
    </message>
    <message>
        <source>Any type</source>
        <translation>Tout type</translation>
    </message>
    <message>
        <source>Any date</source>
        <translation>Toute date</translation>
    </message>
    <message>
        <source>No event matches these filters.</source>
        <translation>Aucun événement ne correspond à ces filtres.</translation>
    </message>
    <message>
        <source>Signature valid (key v{0}); content matches its signed hash.</source>
        <translation>Signature valide (clé v{0})&#xa0;; le contenu correspond à son empreinte signée.</translation>
    </message>
    <message>
        <source>Erased: the content was replaced by a signed tombstone; the event&apos;s signature still verifies.</source>
        <translation>Effacé&#xa0;: le contenu a été remplacé par une tombstone signée&#xa0;; la signature de l&apos;événement se vérifie toujours.</translation>
    </message>
    <message>
        <source>The signature does NOT verify: this event was altered.</source>
        <translation>La signature NE se vérifie PAS&#xa0;: cet événement a été modifié.</translation>
    </message>
    <message>
        <source>The content does NOT match its signed hash: the data was edited.</source>
        <translation>Le contenu NE correspond PAS à son empreinte signée&#xa0;: les données ont été modifiées.</translation>
    </message>
    <message>
        <source>Unsigned line: not written by Lorekeeper.</source>
        <translation>Ligne non signée&#xa0;: elle n&apos;a pas été écrite par Lorekeeper.</translation>
    </message>
    <message>
        <source>Damaged line: not valid JSON.</source>
        <translation>Ligne endommagée&#xa0;: ce n&apos;est pas du JSON valide.</translation>
    </message>
    <message>
        <source>Signed event — {file} line {line}</source>
        <translation>Événement signé — {file} ligne {line}</translation>
    </message>
</context>
<context>
    <name>AuditSettingsDialog</name>
    <message>
        <source>Audit key settings</source>
        <translation>Réglages de la clé d&apos;audit</translation>
    </message>
    <message>
        <source>optional: stored in the OS keyring, never in a file</source>
        <translation>facultatif&#xa0;: stocké dans le trousseau du système, jamais dans un fichier</translation>
    </message>
    <message>
        <source>Provider:</source>
        <translation>Fournisseur&#xa0;:</translation>
    </message>
    <message>
        <source>Vault address:</source>
        <translation>Adresse Vault&#xa0;:</translation>
    </message>
    <message>
        <source>KV v2 mount:</source>
        <translation>Montage KV v2&#xa0;:</translation>
    </message>
    <message>
        <source>Key path:</source>
        <translation>Chemin de la clé&#xa0;:</translation>
    </message>
    <message>
        <source>Vault auth:</source>
        <translation>Authentification Vault&#xa0;:</translation>
    </message>
    <message>
        <source>AppRole role id:</source>
        <translation>Role id AppRole&#xa0;:</translation>
    </message>
    <message>
        <source>Token / secret id:</source>
        <translation>Jeton / secret id&#xa0;:</translation>
    </message>
    <message>
        <source>Saved to {config_path}</source>
        <translation>Enregistré dans {config_path}</translation>
    </message>
    <message>
        <source>Saving the audit key settings</source>
        <translation>Enregistrement des réglages de la clé d&apos;audit</translation>
    </message>
</context>
<context>
    <name>BattleCard</name>
    <message>
        <source>new ★</source>
        <translation>nouvelle ★</translation>
    </message>
    <message>
        <source>old ★</source>
        <translation>ancienne ★</translation>
    </message>
    <message>
        <source>Scenario {0} — winner: {winner}</source>
        <translation>Scénario {0} — gagnante&#xa0;: {winner}</translation>
    </message>
    <message>
        <source>&lt;b&gt;{0}{star}&lt;/b&gt; — combined &lt;b&gt;{score:.2f}&lt;/b&gt;/10 · evals {1}/10 · judge {judge:.1f}/10</source>
        <translation>&lt;b&gt;{0}{star}&lt;/b&gt; — combiné &lt;b&gt;{score:.2f}&lt;/b&gt;/10 · évals {1}/10 · juge {judge:.1f}/10</translation>
    </message>
    <message>
        <source>&lt;b&gt;{0}&lt;/b&gt;: A {score_a}/10, B {score_b}/10 → prefers {1} — {2}</source>
        <translation>&lt;b&gt;{0}&lt;/b&gt;&#xa0;: A {score_a}/10, B {score_b}/10 → préfère {1} — {2}</translation>
    </message>
    <message>
        <source>Judge: </source>
        <translation>Juge&#xa0;: </translation>
    </message>
    <message>
        <source>&lt;br&gt;</source>
        <translation>&lt;br&gt;</translation>
    </message>
</context>
<context>
    <name>BenchmarksPanel</name>
    <message>
        <source>Re-run benchmark</source>
        <translation>Relancer le benchmark</translation>
    </message>
    <message>
        <source>Benchmark the selected run&apos;s proposal again (kept scenarios are reused)</source>
        <translation>Relancer le benchmark de la proposition de l&apos;exécution sélectionnée (les scénarios conservés sont réutilisés)</translation>
    </message>
    <message>
        <source>Proposal:</source>
        <translation>Proposition&#xa0;:</translation>
    </message>
    <message>
        <source>No benchmark yet. Select a pending proposal in Proposals and press B (or `lorekeeper bench run ID`); Sage proposals are benchmarked automatically.</source>
        <translation>Aucun benchmark pour l&apos;instant. Sélectionnez une proposition en attente dans Propositions et appuyez sur B (ou `lorekeeper bench run ID`)&#xa0;; les propositions de Sage sont évaluées automatiquement.</translation>
    </message>
    <message>
        <source>Battle view</source>
        <translation>Vue du duel</translation>
    </message>
    <message>
        <source>Kept scenarios</source>
        <translation>Scénarios conservés</translation>
    </message>
    <message>
        <source>A new scenario, Enter keeps it</source>
        <translation>Un scénario, Entrée le garde</translation>
    </message>
    <message>
        <source>Write a scenario (a request both versions answer), Enter to keep it</source>
        <translation>Écrivez un scénario (une demande à laquelle les deux versions répondent), Entrée pour le conserver</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>Ajouter</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Supprimer</translation>
    </message>
    <message>
        <source>Used first by the next runs of this skill (yours before the model&apos;s); missing ones are generated by the model and kept.</source>
        <translation>Utilisés en premier par les prochaines exécutions de cette skill (les vôtres avant ceux du modèle)&#xa0;; ceux qui manquent sont générés par le modèle et conservés.</translation>
    </message>
    <message>
        <source>Benchmarks</source>
        <translation>Benchmarks</translation>
    </message>
    <message>
        <source>A/B runs of proposals: current vs proposed content on the same scenarios. Combined score (0-10) = {EVAL_WEIGHT:.0%} evals (share of rules passed × 10) + {JUDGE_WEIGHT:.0%} LLM judge (1-10, both orders, labels hidden; a judge that changes its mind when the order is swapped counts as a tie).</source>
        <translation>Exécutions A/B des propositions&#xa0;: contenu actuel contre contenu proposé sur les mêmes scénarios. Score combiné (0-10) = {EVAL_WEIGHT:.0%} évals (part des règles réussies × 10) + {JUDGE_WEIGHT:.0%} juge LLM (1-10, dans les deux ordres, étiquettes masquées&#xa0;; un juge qui change d&apos;avis quand l&apos;ordre est inversé compte comme une égalité).</translation>
    </message>
    <message>
        <source>Loading benchmarks</source>
        <translation>Chargement des benchmarks</translation>
    </message>
    <message>
        <source>All proposals</source>
        <translation>Toutes les propositions</translation>
    </message>
    <message numerus="yes">
        <source>%n run(s)</source>
        <translation>
            <numerusform>%n exécution</numerusform>
            <numerusform>%n exécutions</numerusform>
        </translation>
    </message>
    <message>
        <source>Run #{id} · proposal #{proposal_id} · {badge}</source>
        <translation>Exécution n° {id} · proposition n° {proposal_id} · {badge}</translation>
    </message>
    <message>
        <source>{skill}: mean combined old {old_avg:.2f} → new {new_avg:.2f} (0-10). Model {provider}:{model}, judge {judge_model}, seed {seed}, {created_at:%Y-%m-%d %H:%M} UTC.</source>
        <translation>{skill}&#xa0;: moyenne combinée ancienne {old_avg:.2f} → nouvelle {new_avg:.2f} (0-10). Modèle {provider}:{model}, juge {judge_model}, graine {seed}, {created_at:%d/%m/%Y %H:%M} UTC.</translation>
    </message>
    <message>
        <source>Benchmark #{id} of proposal #{proposal_id}: {badge}</source>
        <translation>Benchmark n° {id} de la proposition n° {proposal_id}&#xa0;: {badge}</translation>
    </message>
    <message>
        <source>Benchmark #{proposal_id}</source>
        <translation>Benchmark n° {proposal_id}</translation>
    </message>
    <message>
        <source>Benchmark cancelled: nothing was stored.</source>
        <translation>Benchmark annulé&#xa0;: rien n&apos;a été enregistré.</translation>
    </message>
    <message>
        <source>Kept scenarios of {skill}</source>
        <translation>Scénarios conservés de {skill}</translation>
    </message>
    <message>
        <source>Loading scenarios</source>
        <translation>Chargement des scénarios</translation>
    </message>
    <message>
        <source>Adding a scenario</source>
        <translation>Ajout d&apos;un scénario</translation>
    </message>
    <message>
        <source>Deleting a scenario</source>
        <translation>Suppression d&apos;un scénario</translation>
    </message>
</context>
<context>
    <name>ChangeFeedBridge</name>
    <message>
        <source>Watching the store</source>
        <extracomment>change kind -&gt; bus topics</extracomment>
        <translation>Surveillance du store</translation>
    </message>
</context>
<context>
    <name>CheatSheet</name>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>Raccourcis clavier</translation>
    </message>
    <message>
        <source>&lt;p&gt;No shortcuts of its own.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Aucun raccourci propre.&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>ConflictDialog</name>
    <message>
        <source>{name} exists</source>
        <translation>{name} existe déjà</translation>
    </message>
    <message>
        <source> in project {project}</source>
        <translation> dans le projet {project}</translation>
    </message>
    <message>
        <source>A skill named {name} exists{where} (v{version}) with other content than {path}. Nothing is replaced unless you choose so.</source>
        <translation>Une skill nommée {name} existe{where} (v{version}) avec un contenu différent de {path}. Rien n&apos;est remplacé sans votre choix.</translation>
    </message>
    <message>
        <source>Skip</source>
        <translation>Ignorer</translation>
    </message>
    <message>
        <source>Import as a new version</source>
        <translation>Importer comme nouvelle version</translation>
    </message>
    <message>
        <source>Fork into project</source>
        <translation>Forker dans le projet</translation>
    </message>
    <message>
        <source>Import renamed</source>
        <translation>Importer sous un autre nom</translation>
    </message>
    <message>
        <source>Project</source>
        <translation>Projet</translation>
    </message>
    <message>
        <source>New name</source>
        <translation>Nouveau nom</translation>
    </message>
    <message>
        <source>What the import would change</source>
        <translation>Ce que l&apos;import changerait</translation>
    </message>
</context>
<context>
    <name>ConflictsModel</name>
    <message>
        <source>Reason</source>
        <translation>Raison</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Statut</translation>
    </message>
</context>
<context>
    <name>ConflictsPanel</name>
    <message>
        <source>conflict</source>
        <translation>conflit</translation>
    </message>
    <message>
        <source>Undo the arbitration: the conflict opens again, its facts back in conflict</source>
        <translation>Annuler l&apos;arbitrage&#xa0;: le conflit est rouvert, ses faits de nouveau en conflit</translation>
    </message>
    <message>
        <source>Keep {0} ({1})</source>
        <translation>Garder {0} ({1})</translation>
    </message>
    <message>
        <source>Merge… (M)</source>
        <translation>Fusionner… (M)</translation>
    </message>
    <message>
        <source>Reject all (X)</source>
        <translation>Tout rejeter (X)</translation>
    </message>
    <message>
        <source>Keep fact A, B, … (the others are rejected); type the reason, Enter</source>
        <translation>Garder le fait A, B, … (les autres sont rejetés)&#xa0;; saisissez la raison, Entrée</translation>
    </message>
    <message>
        <source>Merge into a new statement (type it, Enter; then the reason)</source>
        <translation>Fusionner en un nouvel énoncé (saisissez-le, Entrée&#xa0;; puis la raison)</translation>
    </message>
    <message>
        <source>Reject them all; type the reason, Enter</source>
        <translation>Les rejeter tous&#xa0;; saisissez la raison, Entrée</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Actualiser</translation>
    </message>
    <message>
        <source>The merged statement (Enter, then the reason; Esc cancels)</source>
        <translation>L&apos;énoncé fusionné (Entrée, puis la raison&#xa0;; Échap annule)</translation>
    </message>
    <message>
        <source>Merged statement:</source>
        <translation>Énoncé fusionné&#xa0;:</translation>
    </message>
    <message>
        <source>Conflicts</source>
        <translation>Conflits</translation>
    </message>
    <message>
        <source>Facts that contradict each other, side by side with their sources. Keep one, merge them into a new statement or reject them all: a reason is required, the decision is signed and the other facts keep their history. Press ? for the keyboard shortcuts.</source>
        <translation>Des faits qui se contredisent, côte à côte avec leurs sources. Gardez-en un, fusionnez-les en un nouvel énoncé ou rejetez-les tous&#xa0;: une raison est requise, la décision est signée et les autres faits gardent leur historique. Appuyez sur&#xa0;? pour les raccourcis clavier.</translation>
    </message>
    <message>
        <source>Show:</source>
        <translation>Afficher&#xa0;:</translation>
    </message>
    <message>
        <source>No open conflict. Contradictions appear here when `lorekeeper facts consolidate --llm` finds facts that cannot both be true; the model never chooses, you do.</source>
        <translation>Aucun conflit ouvert. Les contradictions apparaissent ici quand `lorekeeper facts consolidate --llm` trouve des faits qui ne peuvent pas être vrais tous les deux&#xa0;; le modèle ne choisit jamais, c&apos;est vous qui décidez.</translation>
    </message>
    <message>
        <source>No conflict.</source>
        <translation>Aucun conflit.</translation>
    </message>
    <message>
        <source>Loading conflicts</source>
        <translation>Chargement des conflits</translation>
    </message>
    <message>
        <source>{n} shown · {n_open} open</source>
        <translation>{n} affiché(s) · {n_open} ouvert(s)</translation>
    </message>
    <message>
        <source>Select a conflict to see its facts side by side.</source>
        <translation>Sélectionnez un conflit pour voir ses faits côte à côte.</translation>
    </message>
    <message>
        <source>Conflict #{id} · {project} — {reason}</source>
        <translation>Conflit n° {id} · {project} — {reason}</translation>
    </message>
    <message>
        <source>Open: 1 / 2 keep a fact, M merge, X reject all (each asks for a reason).</source>
        <translation>Ouvert&#xa0;: 1 / 2 garde un fait, M fusionne, X rejette tout (chacun demande une raison).</translation>
    </message>
    <message>
        <source>Resolved ({resolution}) by {resolved_by} · {0}</source>
        <translation>Résolu ({resolution}) par {resolved_by} · {0}</translation>
    </message>
    <message>
        <source>keep</source>
        <translation>un fait gardé</translation>
    </message>
    <message>
        <source>merge</source>
        <translation>fusion</translation>
    </message>
    <message>
        <source>reject all</source>
        <translation>tous rejetés</translation>
    </message>
    <message>
        <source> · U undoes it</source>
        <translation> · U l&apos;annule</translation>
    </message>
    <message>
        <source>None of the {0} selected conflicts is open.</source>
        <translation>Aucun des {0} conflits sélectionnés n&apos;est ouvert.</translation>
    </message>
    <message>
        <source>Why keep fact {0} in each of the {1} selected conflicts? One reason for all, Enter</source>
        <translation>Pourquoi garder le fait {0} dans chacun des {1} conflits sélectionnés ? Une raison pour tous, Entrée</translation>
    </message>
    <message>
        <source>Keep {0} in {1}</source>
        <translation>Garder {0} dans {1}</translation>
    </message>
    <message>
        <source>Why keep {0} (“{1}”)? Enter to confirm, Esc to cancel</source>
        <translation>Pourquoi garder {0} («&#xa0;{1}&#xa0;»)&#xa0;? Entrée pour confirmer, Échap pour annuler</translation>
    </message>
    <message>
        <source>Keep {0}</source>
        <translation>Garder {0}</translation>
    </message>
    <message>
        <source>Keeping a fact needs a reason</source>
        <translation>Garder un fait demande une raison</translation>
    </message>
    <message>
        <source>Why reject them all? Enter to confirm, Esc to cancel</source>
        <translation>Pourquoi les rejeter tous&#xa0;? Entrée pour confirmer, Échap pour annuler</translation>
    </message>
    <message>
        <source>Reject all</source>
        <translation>Tout rejeter</translation>
    </message>
    <message>
        <source>Rejecting them all needs a reason</source>
        <translation>Les rejeter tous demande une raison</translation>
    </message>
    <message>
        <source>Why reject every fact of the {0} selected conflicts? One reason for all, Enter</source>
        <translation>Pourquoi rejeter tous les faits des {0} conflits sélectionnés ? Une raison pour tous, Entrée</translation>
    </message>
    <message>
        <source>Reject all in {0}</source>
        <translation>Tout rejeter dans {0}</translation>
    </message>
    <message>
        <source>A merge needs the new statement: type it, then Enter.</source>
        <translation>Une fusion demande le nouvel énoncé&#xa0;: saisissez-le, puis Entrée.</translation>
    </message>
    <message>
        <source>Why merge them into this statement? Enter to confirm, Esc to cancel</source>
        <translation>Pourquoi les fusionner en cet énoncé&#xa0;? Entrée pour confirmer, Échap pour annuler</translation>
    </message>
    <message>
        <source>Merge</source>
        <translation>Fusionner</translation>
    </message>
    <message>
        <source>A merge needs a reason</source>
        <translation>Une fusion demande une raison</translation>
    </message>
    <message>
        <source>undo in the review queue</source>
        <translation>annulation dans la file de revue</translation>
    </message>
    <message>
        <source>Undo: conflict {0} resolved by keeping one fact</source>
        <translation>Annuler&#xa0;: conflit {0} résolu en gardant un fait</translation>
    </message>
    <message>
        <source>Undo: conflict {0} resolved by a merge</source>
        <translation>Annuler&#xa0;: conflit {0} résolu par une fusion</translation>
    </message>
    <message>
        <source>Undo: conflict {0} resolved by rejecting every fact</source>
        <translation>Annuler&#xa0;: conflit {0} résolu en rejetant tous les faits</translation>
    </message>
    <message>
        <source>Conflict #{0} is open again: its facts are back in conflict</source>
        <translation>Le conflit n° {0} est rouvert&#xa0;: ses faits sont de nouveau en conflit</translation>
    </message>
    <message numerus="yes">
        <source>%n conflict(s) open again: their facts are back in conflict</source>
        <translation>
            <numerusform>%n conflit rouvert&#xa0;: ses faits sont de nouveau en conflit</numerusform>
            <numerusform>%n conflits rouverts&#xa0;: leurs faits sont de nouveau en conflit</numerusform>
        </translation>
    </message>
    <message>
        <source>one fact kept in each</source>
        <translation>un fait gardé dans chacun</translation>
    </message>
    <message>
        <source>every fact rejected</source>
        <translation>tous les faits rejetés</translation>
    </message>
    <message>
        <source>{0} conflicts resolved: {1} (signed in the audit log).</source>
        <translation>{0} conflits résolus : {1} (signé dans le journal d&apos;audit).</translation>
    </message>
    <message>
        <source>Kept one fact</source>
        <translation>Un fait gardé</translation>
    </message>
    <message>
        <source>Merged</source>
        <translation>Fusionnés</translation>
    </message>
    <message>
        <source>Rejected all</source>
        <translation>Tous rejetés</translation>
    </message>
    <message>
        <source>Conflict #{0} resolved: {what}</source>
        <translation>Conflit n° {0} résolu&#xa0;: {what}</translation>
    </message>
    <message>
        <source> — “{statement}” is approved</source>
        <translation> — «&#xa0;{statement}&#xa0;» est approuvé</translation>
    </message>
    <message>
        <source> (signed in the audit log).</source>
        <translation> (signé dans le journal d&apos;audit).</translation>
    </message>
</context>
<context>
    <name>ContentTab</name>
    <message>
        <source>Edit</source>
        <translation>Modifier</translation>
    </message>
    <message>
        <source>Edit the whole SKILL.md (front matter included)</source>
        <translation>Modifier tout le SKILL.md (front matter compris)</translation>
    </message>
    <message>
        <source>Commit message: what changed and why</source>
        <translation>Message de commit&#xa0;: ce qui a changé et pourquoi</translation>
    </message>
    <message>
        <source>Save as new version</source>
        <translation>Enregistrer comme nouvelle version</translation>
    </message>
    <message>
        <source>Discard</source>
        <translation>Abandonner</translation>
    </message>
    <message>
        <source>SKILL.md · v{version} · {author} · {message}</source>
        <translation>SKILL.md · v{version} · {author} · {message}</translation>
    </message>
    <message>
        <source>Editing…</source>
        <translation>Modification…</translation>
    </message>
    <message>
        <source> (fork for {project})</source>
        <translation> (fork pour {project})</translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation>Modifications non enregistrées</translation>
    </message>
    <message>
        <source>SKILL.md of {name}{where} has unsaved changes. Save them as a new version?</source>
        <translation>Le SKILL.md de {name}{where} a des modifications non enregistrées. Les enregistrer comme nouvelle version&#xa0;?</translation>
    </message>
    <message>
        <source>edited in the app</source>
        <translation>modifié dans l&apos;application</translation>
    </message>
    <message>
        <source>Saving {name}</source>
        <translation>Enregistrement de {name}</translation>
    </message>
    <message>
        <source>No change: the content is identical to the current version.</source>
        <translation>Aucun changement&#xa0;: le contenu est identique à la version actuelle.</translation>
    </message>
    <message>
        <source>Saved as v{version}.</source>
        <translation>Enregistré en v{version}.</translation>
    </message>
    <message>
        <source>Saved {name} v{version}</source>
        <translation>{name} v{version} enregistrée</translation>
    </message>
</context>
<context>
    <name>CorporaModel</name>
    <message>
        <source>Corpus</source>
        <translation>Corpus</translation>
    </message>
    <message>
        <source>Documents</source>
        <translation>Documents</translation>
    </message>
    <message>
        <source>Indexed</source>
        <translation>Indexés</translation>
    </message>
    <message>
        <source>Embedder</source>
        <translation>Embedder</translation>
    </message>
    <message>
        <source>Dims</source>
        <translation>Dim.</translation>
    </message>
    <message>
        <source>State</source>
        <translation>État</translation>
    </message>
    <message>
        <source>Index</source>
        <translation>Index</translation>
    </message>
    <message>
        <source>stale: {reason}</source>
        <translation>périmé&#xa0;: {reason}</translation>
    </message>
    <message>
        <source>up to date</source>
        <translation>à jour</translation>
    </message>
    <message>
        <source>the store&apos;s, shared (pgvector)</source>
        <translation>celui du store, partagé (pgvector)</translation>
    </message>
    <message>
        <source>this workspace (FAISS)</source>
        <translation>cet espace de travail (FAISS)</translation>
    </message>
</context>
<context>
    <name>DecisionHistory</name>
    <message>
        <source>Decisions of this session — Enter undoes the chosen one, Esc closes</source>
        <translation>Décisions de cette session — Entrée annule celle choisie, Échap ferme</translation>
    </message>
    <message>
        <source>Approved</source>
        <translation>Approuvé</translation>
    </message>
    <message>
        <source>Rejected</source>
        <translation>Rejeté</translation>
    </message>
    <message>
        <source>Undo: {0} {1} {2}</source>
        <translation>Annuler : {0} {1} {2}</translation>
    </message>
</context>
<context>
    <name>DiffCanvas</name>
    <message numerus="yes">
        <source>… %n unchanged line(s) (click to show)</source>
        <translation>
            <numerusform>… %n ligne inchangée (cliquer pour l&apos;afficher)</numerusform>
            <numerusform>… %n lignes inchangées (cliquer pour les afficher)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>DiffView</name>
    <message>
        <source>No difference.</source>
        <translation>Aucune différence.</translation>
    </message>
    <message numerus="yes">
        <source>%n change(s)</source>
        <translation>
            <numerusform>%n modification</numerusform>
            <numerusform>%n modifications</numerusform>
        </translation>
    </message>
    <message>
        <source>, +{added} −{removed} lines</source>
        <translation>, +{added} −{removed} lignes</translation>
    </message>
    <message>
        <source>Previous change (Alt+Up)</source>
        <translation>Modification précédente (Alt+Haut)</translation>
    </message>
    <message>
        <source>Next change (Alt+Down)</source>
        <translation>Modification suivante (Alt+Bas)</translation>
    </message>
    <message>
        <source>Switch between split (side by side) and unified (Alt+V)</source>
        <translation>Basculer entre côte à côte et unifié (Alt+V)</translation>
    </message>
    <message>
        <source>Open this diff in a window of its own</source>
        <translation>Ouvrir ce diff dans sa propre fenêtre</translation>
    </message>
    <message>
        <source>Find in the diff (Enter: next, Shift+Enter: previous, Esc: close)</source>
        <translation>Chercher dans le diff (Entrée : suivant, Maj+Entrée : précédent, Échap : fermer)</translation>
    </message>
    <message>
        <source>Previous match (Shift+Enter, Shift+F3)</source>
        <translation>Occurrence précédente (Maj+Entrée, Maj+F3)</translation>
    </message>
    <message>
        <source>Next match (Enter, F3)</source>
        <translation>Occurrence suivante (Entrée, F3)</translation>
    </message>
    <message>
        <source>Close the search (Esc)</source>
        <translation>Fermer la recherche (Échap)</translation>
    </message>
    <message>
        <source>Next change in the diff</source>
        <translation>Modification suivante du diff</translation>
    </message>
    <message>
        <source>Previous change in the diff</source>
        <translation>Modification précédente du diff</translation>
    </message>
    <message>
        <source>Diff: side by side / unified</source>
        <translation>Diff&#xa0;: côte à côte / unifié</translation>
    </message>
    <message>
        <source>Next match in the diff</source>
        <translation>Occurrence suivante dans le diff</translation>
    </message>
    <message>
        <source>Previous match in the diff</source>
        <translation>Occurrence précédente dans le diff</translation>
    </message>
    <message>
        <source>Computing diff</source>
        <translation>Calcul du diff</translation>
    </message>
    <message>
        <source>Diff</source>
        <translation>Diff</translation>
    </message>
    <message>
        <source>no match</source>
        <translation>aucune occurrence</translation>
    </message>
    <message>
        <source>{0} of {1}</source>
        <translation>{0} sur {1}</translation>
    </message>
    <message>
        <source>Unified</source>
        <translation>Unifié</translation>
    </message>
    <message>
        <source>Split</source>
        <translation>Côte à côte</translation>
    </message>
    <message>
        <source>{summary} · change {0} of {n}</source>
        <translation>{summary} · modification {0} sur {n}</translation>
    </message>
    <message>
        <source>Show all unchanged lines</source>
        <translation>Afficher toutes les lignes inchangées</translation>
    </message>
    <message>
        <source>Split (side by side)</source>
        <translation>Côte à côte (deux colonnes)</translation>
    </message>
    <message>
        <source>Copy the old text (left)</source>
        <translation>Copier l&apos;ancien texte (gauche)</translation>
    </message>
    <message>
        <source>Copy the new text (right)</source>
        <translation>Copier le nouveau texte (droite)</translation>
    </message>
</context>
<context>
    <name>DiscoverView</name>
    <message>
        <source>Skill</source>
        <translation>Skill</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Source</translation>
    </message>
    <message>
        <source>Score</source>
        <translation>Score</translation>
    </message>
    <message>
        <source>Installed</source>
        <translation>Installée</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>Description</translation>
    </message>
    <message>
        <source>A folder, a git checkout or URL, a zip, or a .claude-plugin/marketplace.json</source>
        <translation>Un dossier, un dépôt git ou son URL, un zip, ou un .claude-plugin/marketplace.json</translation>
    </message>
    <message>
        <source>Add source</source>
        <translation>Ajouter la source</translation>
    </message>
    <message>
        <source>Rescan</source>
        <translation>Réanalyser</translation>
    </message>
    <message>
        <source>No sources yet.</source>
        <translation>Aucune source pour l&apos;instant.</translation>
    </message>
    <message>
        <source>Search the marketplaces: what should the skill do?  (Ctrl+L)</source>
        <translation>Chercher dans les marketplaces&#xa0;: que doit faire la skill&#xa0;?  (Ctrl+L)</translation>
    </message>
    <message>
        <source>Search</source>
        <translation>Chercher</translation>
    </message>
    <message>
        <source>The project the compatibility note and a fork are for</source>
        <translation>Le projet visé par la note de compatibilité et un fork</translation>
    </message>
    <message>
        <source>Select a skill to see what it needs and how it overlaps with your skills.</source>
        <translation>Sélectionnez une skill pour voir ce dont elle a besoin et comment elle recoupe vos skills.</translation>
    </message>
    <message>
        <source>Install globally</source>
        <translation>Installer globalement</translation>
    </message>
    <message>
        <source>Fork into project</source>
        <translation>Forker dans le projet</translation>
    </message>
    <message>
        <source>For:</source>
        <translation>Pour&#xa0;:</translation>
    </message>
    <message>
        <source>Compatibility note</source>
        <translation>Note de compatibilité</translation>
    </message>
    <message>
        <source>Discover: search the marketplaces</source>
        <translation>Découvrir&#xa0;: chercher dans les marketplaces</translation>
    </message>
    <message>
        <source>Loading projects</source>
        <translation>Chargement des projets</translation>
    </message>
    <message>
        <source>Global library</source>
        <translation>Bibliothèque globale</translation>
    </message>
    <message>
        <source>Project: {p}</source>
        <translation>Projet&#xa0;: {p}</translation>
    </message>
    <message>
        <source>Give a folder, a zip, a git URL or a marketplace.json first.</source>
        <translation>Indiquez d&apos;abord un dossier, un zip, une URL git ou un marketplace.json.</translation>
    </message>
    <message>
        <source>Added {name}: {skills} skill(s){skipped}</source>
        <translation>{name} ajoutée&#xa0;: {skills} skill(s){skipped}</translation>
    </message>
    <message>
        <source>Adding {where}</source>
        <translation>Ajout de {where}</translation>
    </message>
    <message>
        <source>Scanning marketplaces</source>
        <translation>Analyse des marketplaces</translation>
    </message>
    <message>
        <source>No sources yet: add a folder, a zip, a git URL or a marketplace.json above.</source>
        <translation>Aucune source pour l&apos;instant&#xa0;: ajoutez ci-dessus un dossier, un zip, une URL git ou un marketplace.json.</translation>
    </message>
    <message>
        <source>Sources: </source>
        <translation>Sources&#xa0;: </translation>
    </message>
    <message>
        <source>Searching marketplaces</source>
        <translation>Recherche dans les marketplaces</translation>
    </message>
    <message>
        <source>{ref}

Reading the skill and the project&apos;s skills…</source>
        <translation>{ref}

Lecture de la skill et des skills du projet…</translation>
    </message>
    <message>
        <source>Compatibility of {name}</source>
        <translation>Compatibilité de {name}</translation>
    </message>
    <message>
        <source>  (plugin {plugin})</source>
        <translation>  (plugin {plugin})</translation>
    </message>
    <message>
        <source>Pick a project under For: first</source>
        <translation>Choisissez d&apos;abord un projet dans Pour&#xa0;:</translation>
    </message>
    <message>
        <source>into project {project}</source>
        <translation>dans le projet {project}</translation>
    </message>
    <message>
        <source>Installing {name}</source>
        <translation>Installation de {name}</translation>
    </message>
    <message>
        <source>Installing {name} {where} — wait for it to finish</source>
        <translation>Installation de {name} {where} — attendez qu&apos;elle se termine</translation>
    </message>
    <message>
        <source>Installed {name} {where} from {source}</source>
        <translation>{name} installée {where} depuis {source}</translation>
    </message>
</context>
<context>
    <name>DocumentView</name>
    <message>
        <source>{position} · the quote is no longer in this document</source>
        <translation>{position} · la citation ne figure plus dans ce document</translation>
    </message>
    <message>
        <source>{position} · line {line} · O: next provenance · Esc: close</source>
        <translation>{position} · ligne {line} · O&#xa0;: provenance suivante · Échap&#xa0;: fermer</translation>
    </message>
</context>
<context>
    <name>EditApproveDialog</name>
    <message>
        <source>Approve proposal #{id} with edits</source>
        <translation>Approuver la proposition n° {id} avec des modifications</translation>
    </message>
    <message>
        <source>Edit the proposed SKILL.md of {skill} before approving it. Approve with edits makes your text the new version; the edit is recorded in the signed decision.</source>
        <translation>Modifiez le SKILL.md proposé de {skill} avant de l&apos;approuver. Approuver avec modifications fait de votre texte la nouvelle version&#xa0;; la modification est consignée dans la décision signée.</translation>
    </message>
    <message>
        <source>Approve with edits</source>
        <translation>Approuver avec modifications</translation>
    </message>
    <message>
        <source>Approve your edited text (Ctrl+Enter)</source>
        <translation>Approuver votre texte modifié (Ctrl+Entrée)</translation>
    </message>
    <message>
        <source>Reset to proposed</source>
        <translation>Revenir à la proposition</translation>
    </message>
    <message>
        <source>The edited SKILL.md is empty: write the content to approve, or Cancel.</source>
        <translation>Le SKILL.md modifié est vide&#xa0;: écrivez le contenu à approuver, ou Annuler.</translation>
    </message>
</context>
<context>
    <name>ErrorDialog</name>
    <message>
        <source>Unexpected error</source>
        <translation>Erreur inattendue</translation>
    </message>
    <message>
        <source>{job_name} failed: {error_type}: {0}</source>
        <translation>{job_name} a échoué&#xa0;: {error_type}&#xa0;: {0}</translation>
    </message>
    <message>
        <source>This is a bug or an environment failure. The details are in {log_path}.</source>
        <translation>C&apos;est un bug ou une défaillance de l&apos;environnement. Les détails sont dans {log_path}.</translation>
    </message>
    <message>
        <source>Copy details</source>
        <translation>Copier les détails</translation>
    </message>
    <message>
        <source>Show details</source>
        <translation>Afficher les détails</translation>
    </message>
    <message>
        <source>Copied</source>
        <translation>Copié</translation>
    </message>
</context>
<context>
    <name>ErrorScreen</name>
    <message>
        <source>{APP_NAME} — cannot open the workspace</source>
        <translation>{APP_NAME} — impossible d&apos;ouvrir l&apos;espace de travail</translation>
    </message>
    <message>
        <source>The workspace could not be opened</source>
        <translation>L&apos;espace de travail n&apos;a pas pu être ouvert</translation>
    </message>
    <message>
        <source>Retry</source>
        <translation>Réessayer</translation>
    </message>
    <message>
        <source>Restore this backup</source>
        <translation>Restaurer cette sauvegarde</translation>
    </message>
    <message>
        <source>Put the newest backup in place (the damaged file is kept aside), then open</source>
        <translation>Mettre en place la sauvegarde la plus récente (le fichier endommagé est mis de côté), puis ouvrir</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>Quitter</translation>
    </message>
    <message>
        <source>Check the workspace folder and its lorekeeper.toml, then retry.</source>
        <translation>Vérifiez le dossier de l&apos;espace de travail et son lorekeeper.toml, puis réessayez.</translation>
    </message>
    <message>
        <source>What to do: </source>
        <translation>Que faire&#xa0;: </translation>
    </message>
    <message>
        <source>Restore {backup}, keep the damaged file aside, then open</source>
        <translation>Restaurer {backup}, mettre de côté le fichier endommagé, puis ouvrir</translation>
    </message>
    <message>
        <source>Restore {backup}?

The damaged database is renamed aside (never overwritten or deleted); changes made after the backup was taken are not in it.</source>
        <translation>Restaurer {backup}&#xa0;?

La base endommagée est renommée à côté (jamais écrasée ni supprimée)&#xa0;; les modifications faites après la sauvegarde n&apos;y figurent pas.</translation>
    </message>
    <message>
        <source>Restoring the backup…</source>
        <translation>Restauration de la sauvegarde…</translation>
    </message>
    <message>
        <source>Restoring the backup</source>
        <translation>Restauration de la sauvegarde</translation>
    </message>
    <message>
        <source>Restored {backup}.</source>
        <translation>{backup} restaurée.</translation>
    </message>
    <message>
        <source> The damaged file is kept as {kept}.</source>
        <translation> Le fichier endommagé est conservé sous {kept}.</translation>
    </message>
    <message>
        <source> Opening…</source>
        <translation> Ouverture…</translation>
    </message>
    <message>
        <source>The restore did not happen: {0}</source>
        <translation>La restauration n&apos;a pas eu lieu&#xa0;: {0}</translation>
    </message>
</context>
<context>
    <name>EvalHistoryModel</name>
    <message>
        <source>When</source>
        <translation>Quand</translation>
    </message>
    <message>
        <source>Skill</source>
        <translation>Skill</translation>
    </message>
    <message>
        <source>Project</source>
        <translation>Projet</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>Résultat</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Échecs</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Source</translation>
    </message>
    <message>
        <source>Footnote</source>
        <translation>Note de bas de réponse</translation>
    </message>
    <message>
        <source>Loading eval history</source>
        <translation>Chargement de l&apos;historique des évals</translation>
    </message>
    <message>
        <source>(rules file)</source>
        <translation>(fichier de règles)</translation>
    </message>
    <message>
        <source>every rule passed</source>
        <translation>toutes les règles sont respectées</translation>
    </message>
</context>
<context>
    <name>EvalsPanel</name>
    <message>
        <source>Load file…</source>
        <translation>Charger un fichier…</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Lancer</translation>
    </message>
    <message>
        <source>Run the skill&apos;s rules on this response (Ctrl+Enter); the run is recorded</source>
        <translation>Appliquer les règles de la skill à cette réponse (Ctrl+Entrée)&#xa0;; l&apos;exécution est enregistrée</translation>
    </message>
    <message>
        <source>Paste or type the model&apos;s answer here, or load it from a file.</source>
        <translation>Collez ou saisissez ici la réponse du modèle, ou chargez-la depuis un fichier.</translation>
    </message>
    <message>
        <source>Skill:</source>
        <translation>Skill&#xa0;:</translation>
    </message>
    <message>
        <source>Project:</source>
        <translation>Projet&#xa0;:</translation>
    </message>
    <message>
        <source>Run an eval</source>
        <translation>Lancer une éval</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>Résultat</translation>
    </message>
    <message>
        <source>Passed and failed</source>
        <translation>Réussies et échouées</translation>
    </message>
    <message>
        <source>Passed</source>
        <translation>Réussies</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Échecs</translation>
    </message>
    <message>
        <source>Search the runs&apos; responses and footnotes (Ctrl+F)</source>
        <translation>Chercher dans les réponses et les notes des exécutions (Ctrl+F)</translation>
    </message>
    <message>
        <source>Search…</source>
        <translation>Chercher…</translation>
    </message>
    <message>
        <source>Eval history: {exc}</source>
        <translation>Historique des évals&#xa0;: {exc}</translation>
    </message>
    <message>
        <source>Pass rate per day, last {CHART_DAYS} days</source>
        <translation>Taux de réussite par jour, {CHART_DAYS} derniers jours</translation>
    </message>
    <message>
        <source>Selected run</source>
        <translation>Exécution sélectionnée</translation>
    </message>
    <message>
        <source>Select a run in the table to see its response and rule results.</source>
        <translation>Sélectionnez une exécution dans le tableau pour voir sa réponse et le résultat de ses règles.</translation>
    </message>
    <message>
        <source>The selected run&apos;s response.</source>
        <translation>La réponse de l&apos;exécution sélectionnée.</translation>
    </message>
    <message>
        <source>History</source>
        <translation>Historique</translation>
    </message>
    <message>
        <source>Evals</source>
        <translation>Évals</translation>
    </message>
    <message>
        <source>Binary, deterministic checks of an answer against a skill&apos;s rules. Failed rules make the footnote; a run succeeds when no warning rule fails.</source>
        <translation>Contrôles binaires et déterministes d&apos;une réponse contre les règles d&apos;une skill. Les règles échouées forment la note&#xa0;; une exécution réussit quand aucune règle d&apos;avertissement n&apos;échoue.</translation>
    </message>
    <message>
        <source>Loading skills</source>
        <translation>Chargement des skills</translation>
    </message>
    <message>
        <source>Global</source>
        <translation>Global</translation>
    </message>
    <message>
        <source>Any skill</source>
        <translation>Toute skill</translation>
    </message>
    <message>
        <source>Any project</source>
        <translation>Tout projet</translation>
    </message>
    <message>
        <source>The library has no skill yet: import one in the Skills panel first.</source>
        <translation>La bibliothèque n&apos;a encore aucune skill&#xa0;: importez-en une dans le panneau Skills.</translation>
    </message>
    <message>
        <source>Load a response</source>
        <translation>Charger une réponse</translation>
    </message>
    <message>
        <source>Text files (*.txt *.md *.json);;All files (*)</source>
        <translation>Fichiers texte (*.txt *.md *.json);;Tous les fichiers (*)</translation>
    </message>
    <message>
        <source>{name} is larger than {0} MB</source>
        <translation>{name} dépasse {0} Mo</translation>
    </message>
    <message>
        <source>Reading {name}</source>
        <translation>Lecture de {name}</translation>
    </message>
    <message>
        <source>Eval {skill}</source>
        <translation>Éval {skill}</translation>
    </message>
    <message>
        <source>This skill has no eval rules yet: add some in Skills → Evals.</source>
        <translation>Cette skill n&apos;a pas encore de règles d&apos;éval&#xa0;: ajoutez-en dans Skills → Évals.</translation>
    </message>
    <message>
        <source>Every rule passed — no footnote.</source>
        <translation>Toutes les règles sont respectées — aucune note.</translation>
    </message>
    <message>
        <source>No rules to check.</source>
        <translation>Aucune règle à vérifier.</translation>
    </message>
    <message>
        <source>Pass-rate chart</source>
        <translation>Graphique du taux de réussite</translation>
    </message>
    <message numerus="yes">
        <source>%Ln run(s)</source>
        <translation>
            <numerusform>%Ln exécution</numerusform>
            <numerusform>%Ln exécutions</numerusform>
        </translation>
    </message>
    <message>
        <source>Run #{id} · {0}{version}{scope} · {when} · {source}</source>
        <translation>Exécution n° {id} · {0}{version}{scope} · {when} · {source}</translation>
    </message>
</context>
<context>
    <name>EventsModel</name>
    <message>
        <source>Line</source>
        <translation>Ligne</translation>
    </message>
    <message>
        <source>Time (UTC)</source>
        <translation>Heure (UTC)</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Type</translation>
    </message>
    <message>
        <source>Story</source>
        <translation>Story</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Clé</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Statut</translation>
    </message>
    <message>
        <source>By</source>
        <translation>Par</translation>
    </message>
    <message>
        <source>valid</source>
        <translation>valide</translation>
    </message>
    <message>
        <source>tombstone (erased)</source>
        <translation>tombstone (effacé)</translation>
    </message>
    <message>
        <source>BAD SIGNATURE</source>
        <translation>SIGNATURE INVALIDE</translation>
    </message>
    <message>
        <source>EDITED CONTENT</source>
        <translation>CONTENU MODIFIÉ</translation>
    </message>
</context>
<context>
    <name>FactEditor</name>
    <message>
        <source>globs, comma-separated (empty: everywhere), e.g. db/migration/**, *.sql</source>
        <translation>globs, séparés par des virgules (vide&#xa0;: partout), p. ex. db/migration/**, *.sql</translation>
    </message>
    <message>
        <source>Save (Enter)</source>
        <translation>Enregistrer (Entrée)</translation>
    </message>
    <message>
        <source>Cancel (Esc)</source>
        <translation>Annuler (Échap)</translation>
    </message>
    <message>
        <source>Statement</source>
        <translation>Énoncé</translation>
    </message>
    <message>
        <source>Confidence</source>
        <translation>Confiance</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Type</translation>
    </message>
    <message>
        <source>Scope</source>
        <translation>Portée</translation>
    </message>
    <message>
        <source>Edit the fact</source>
        <translation>Modifier le fait</translation>
    </message>
</context>
<context>
    <name>FactsModel</name>
    <message>
        <source>Type</source>
        <translation>Type</translation>
    </message>
    <message>
        <source>Statement</source>
        <translation>Énoncé</translation>
    </message>
    <message>
        <source>Conf.</source>
        <translation>Conf.</translation>
    </message>
    <message>
        <source>Docs</source>
        <translation>Docs</translation>
    </message>
    <message>
        <source>Scope</source>
        <translation>Portée</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Statut</translation>
    </message>
    <message>
        <source>Loading facts</source>
        <translation>Chargement des faits</translation>
    </message>
    <message>
        <source>everywhere</source>
        <translation>partout</translation>
    </message>
</context>
<context>
    <name>FactsPanel</name>
    <message>
        <source>All projects</source>
        <translation>Tous les projets</translation>
    </message>
    <message>
        <source>All types</source>
        <translation>Tous les types</translation>
    </message>
    <message>
        <source>All documents</source>
        <translation>Tous les documents</translation>
    </message>
    <message>
        <source>Any scope</source>
        <translation>Toute portée</translation>
    </message>
    <message>
        <source>Everywhere (no scope)</source>
        <translation>Partout (sans portée)</translation>
    </message>
    <message>
        <source>Scoped</source>
        <translation>Avec portée</translation>
    </message>
    <message>
        <source>Add fact… (Ctrl+N)</source>
        <translation>Ajouter un fait… (Ctrl+N)</translation>
    </message>
    <message>
        <source>Extract</source>
        <translation>Extraire</translation>
    </message>
    <message>
        <source>Extract facts from the documents not extracted yet, with the configured model</source>
        <translation>Extraire les faits des documents pas encore traités, avec le modèle configuré</translation>
    </message>
    <message>
        <source>bulk approval by filter in the review queue</source>
        <translation>approbation groupée par filtre dans la file de revue</translation>
    </message>
    <message>
        <source>bulk approval of a selection in the review queue</source>
        <translation>approbation groupée d&apos;une sélection dans la file de revue</translation>
    </message>
    <message>
        <source>fact</source>
        <translation>fait</translation>
    </message>
    <message>
        <source>Show the quote in its document (again: the next provenance)</source>
        <translation>Afficher la citation dans son document (à nouveau&#xa0;: la provenance suivante)</translation>
    </message>
    <message>
        <source>Add a fact by hand (its document and a verbatim quote)</source>
        <translation>Ajouter un fait à la main (son document et une citation exacte)</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Actualiser</translation>
    </message>
    <message>
        <source>Quote (O)</source>
        <translation>Citation (O)</translation>
    </message>
    <message>
        <source>Show the quote highlighted in its document (O again: the next provenance)</source>
        <translation>Afficher la citation surlignée dans son document (O à nouveau&#xa0;: la provenance suivante)</translation>
    </message>
    <message>
        <source>Facts review</source>
        <translation>Revue des faits</translation>
    </message>
    <message>
        <source>Typed, scoped, sourced facts from your documentation: approve what a newcomer would need, reject the rest with a reason. Press O for the quote in its document, ? for the keyboard shortcuts.</source>
        <translation>Des faits typés, avec portée et source, tirés de votre documentation&#xa0;: approuvez ce dont un nouveau venu aurait besoin, rejetez le reste avec une raison. Appuyez sur O pour la citation dans son document,&#xa0;? pour les raccourcis clavier.</translation>
    </message>
    <message>
        <source>No candidate fact to review. Ingest documentation with `lorekeeper facts ingest PATH`, then Extract (a model is needed), or add a fact by hand (Ctrl+N).</source>
        <translation>Aucun fait candidat à revoir. Ingérez la documentation avec `lorekeeper facts ingest PATH`, puis Extraire (un modèle est nécessaire), ou ajoutez un fait à la main (Ctrl+N).</translation>
    </message>
    <message>
        <source>No fact matches these filters.</source>
        <translation>Aucun fait ne correspond à ces filtres.</translation>
    </message>
    <message>
        <source>Loading fact filters</source>
        <translation>Chargement des filtres de faits</translation>
    </message>
    <message>
        <source>{candidate} candidate · {approved} approved · {rejected} rejected · {conflicting} conflicting</source>
        <translation>{candidate} candidat(s) · {approved} approuvé(s) · {rejected} rejeté(s) · {conflicting} en conflit</translation>
    </message>
    <message>
        <source>&lt;p&gt;Select a fact to see its statement, scope, confidence and where it comes from.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Sélectionnez un fait pour voir son énoncé, sa portée, sa confiance et sa provenance.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>quote {0} of {n}</source>
        <translation>citation {0} sur {n}</translation>
    </message>
    <message>
        <source>Opening the document</source>
        <translation>Ouverture du document</translation>
    </message>
    <message numerus="yes">
        <source>Approved %n fact(s): Ctrl+Z puts them back in the queue</source>
        <translation>
            <numerusform>%n fait approuvé&#xa0;: Ctrl+Z le remet dans la file</numerusform>
            <numerusform>%n faits approuvés&#xa0;: Ctrl+Z les remet dans la file</numerusform>
        </translation>
    </message>
    <message>
        <source>undo in the review queue</source>
        <translation>annulation dans la file de revue</translation>
    </message>
    <message>
        <source>Approve {n} candidate fact(s) matching the current filter? (Ctrl+Z undoes it)</source>
        <translation>Approuver {n} fait(s) candidat(s) correspondant au filtre actuel&#xa0;? (Ctrl+Z annule)</translation>
    </message>
    <message numerus="yes">
        <source>Rejected %n fact(s): Ctrl+Z puts them back in the queue</source>
        <translation>
            <numerusform>%n fait rejeté : Ctrl+Z le remet dans la file</numerusform>
            <numerusform>%n faits rejetés : Ctrl+Z les remet dans la file</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Back in the queue: %n fact(s)</source>
        <translation>
            <numerusform>De retour dans la file : %n fait</numerusform>
            <numerusform>De retour dans la file : %n faits</numerusform>
        </translation>
    </message>
    <message>
        <source>Done.</source>
        <translation>Terminé.</translation>
    </message>
    <message>
        <source>Edited: {statement}</source>
        <translation>Modifié&#xa0;: {statement}</translation>
    </message>
    <message>
        <source> (now {id})</source>
        <translation> (désormais {id})</translation>
    </message>
    <message>
        <source>edited in the review queue</source>
        <translation>modifié dans la file de revue</translation>
    </message>
    <message>
        <source>Edit fact</source>
        <translation>Modifier le fait</translation>
    </message>
    <message>
        <source>Added {id}: {statement}</source>
        <translation>{id} ajouté&#xa0;: {statement}</translation>
    </message>
    <message>
        <source>Merged into the older fact {id} (lexical consolidation): {statement}</source>
        <translation>Fusionné dans le fait plus ancien {id} (consolidation lexicale)&#xa0;: {statement}</translation>
    </message>
    <message>
        <source>Add fact</source>
        <translation>Ajouter un fait</translation>
    </message>
    <message>
        <source>Extraction done: {n_kept} fact(s) kept, {n_dropped} dropped (see the run report).</source>
        <translation>Extraction terminée&#xa0;: {n_kept} fait(s) gardé(s), {n_dropped} écarté(s) (voir le rapport d&apos;exécution).</translation>
    </message>
    <message>
        <source>{0}: extraction needs a model — {1}. Configure one in the model settings (or `lorekeeper llm`), or add facts by hand (Ctrl+N).</source>
        <translation>{0}&#xa0;: l&apos;extraction demande un modèle — {1}. Configurez-en un dans les réglages du modèle (ou `lorekeeper llm`), ou ajoutez des faits à la main (Ctrl+N).</translation>
    </message>
    <message>
        <source>Extracting facts</source>
        <translation>Extraction des faits</translation>
    </message>
    <message>
        <source>Extraction cancelled: nothing was stored.</source>
        <translation>Extraction annulée&#xa0;: rien n&apos;a été enregistré.</translation>
    </message>
</context>
<context>
    <name>FailClosedScreen</name>
    <message>
        <source>Lorekeeper — stopped: audit key unavailable</source>
        <translation>Lorekeeper — arrêté&#xa0;: clé d&apos;audit indisponible</translation>
    </message>
    <message>
        <source>Lorekeeper has stopped: the audit key is unavailable</source>
        <translation>Lorekeeper s&apos;est arrêté&#xa0;: la clé d&apos;audit est indisponible</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>Quitter</translation>
    </message>
    <message>
        <source>Settings…</source>
        <translation>Réglages…</translation>
    </message>
    <message>
        <source>Keyring or Vault: address, mount, path, token or AppRole</source>
        <translation>Trousseau ou Vault : adresse, montage, chemin, jeton ou AppRole</translation>
    </message>
    <message>
        <source>Create the key</source>
        <translation>Créer la clé</translation>
    </message>
    <message>
        <source>Retry</source>
        <translation>Réessayer</translation>
    </message>
    <message>
        <source>{0} · cause: {1}</source>
        <translation>{0} · cause&#xa0;: {1}</translation>
    </message>
    <message>
        <source>Provider: {provider}</source>
        <translation>Fournisseur&#xa0;: {provider}</translation>
    </message>
    <message>
        <source>
Workspace: {workspace_root}</source>
        <translation>
Espace de travail&#xa0;: {workspace_root}</translation>
    </message>
    <message>
        <source>What to do: </source>
        <translation>Que faire&#xa0;: </translation>
    </message>
    <message>
        <source>Key: {provider} — failed closed ({0})</source>
        <translation>Clé&#xa0;: {provider} — fermé par sécurité ({0})</translation>
    </message>
    <message>
        <source>Create this workspace&apos;s audit key in {0} (as `lorekeeper audit init-key`), then continue</source>
        <translation>Créer la clé d&apos;audit de cet espace de travail dans {0} (comme `lorekeeper audit init-key`), puis continuer</translation>
    </message>
    <message>
        <source>Checking…</source>
        <translation>Vérification…</translation>
    </message>
    <message>
        <source>Loading the audit key</source>
        <translation>Chargement de la clé d&apos;audit</translation>
    </message>
    <message>
        <source>Create the audit key</source>
        <translation>Créer la clé d&apos;audit</translation>
    </message>
    <message>
        <source>Create a new audit key for this workspace in {0}? It signs everything from now on; keep the provider&apos;s backup of it.</source>
        <translation>Créer une nouvelle clé d&apos;audit pour cet espace de travail dans {0} ? Elle signe tout désormais ; gardez-en la sauvegarde du fournisseur.</translation>
    </message>
    <message>
        <source>Audit key created in {0} (version {1}): continuing.</source>
        <translation>Clé d&apos;audit créée dans {0} (version {1}) : on continue.</translation>
    </message>
    <message>
        <source>Settings saved: trying the key with them…</source>
        <translation>Réglages enregistrés : essai de la clé avec eux…</translation>
    </message>
</context>
<context>
    <name>FixItDialog</name>
    <message>
        <source>Fix It</source>
        <translation>Fix It</translation>
    </message>
    <message>
        <source>Save rule and send fix</source>
        <translation>Enregistrer la règle et envoyer la correction</translation>
    </message>
    <message>
        <source>The answer</source>
        <translation>La réponse</translation>
    </message>
    <message>
        <source>The correction, as a rule every next prompt will carry</source>
        <translation>La correction, sous forme de règle que chaque prochain prompt portera</translation>
    </message>
</context>
<context>
    <name>IssuesModel</name>
    <message>
        <source>File</source>
        <translation>Fichier</translation>
    </message>
    <message>
        <source>Line</source>
        <translation>Ligne</translation>
    </message>
    <message>
        <source>Problem</source>
        <translation>Problème</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>Détails</translation>
    </message>
</context>
<context>
    <name>JobTracker</name>
    <message>
        <source>{name} is running on this {kind} — wait for it to finish or cancel it (Cancel in the status bar)</source>
        <extracomment>threads per pool: two look-ups at once (latest wins per key), one poll, and as many long jobs as the machine has cores (at least two), as the one shared pool allowed before</extracomment>
        <translation>{name} est en cours sur cet élément ({kind}) — attendez la fin ou annulez-le (Annuler dans la barre d&apos;état)</translation>
    </message>
    <message>
        <source>cancelling {name}…</source>
        <translation>annulation de {name}…</translation>
    </message>
</context>
<context>
    <name>KeyStateLabel</name>
    <message>
        <source>Key: …</source>
        <translation>Clé&#xa0;: …</translation>
    </message>
    <message>
        <source>Reading the audit key state</source>
        <translation>Lecture de l&apos;état de la clé d&apos;audit</translation>
    </message>
</context>
<context>
    <name>LLMSettingsDialog</name>
    <message>
        <source>Model settings</source>
        <translation>Réglages du modèle</translation>
    </message>
    <message>
        <source>empty: the provider&apos;s default</source>
        <translation>vide&#xa0;: la valeur par défaut du fournisseur</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>Fournisseur</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modèle</translation>
    </message>
    <message>
        <source>Server URL</source>
        <translation>URL du serveur</translation>
    </message>
    <message>
        <source>Timeout</source>
        <translation>Délai d&apos;attente</translation>
    </message>
    <message>
        <source>Retries</source>
        <translation>Nouvelles tentatives</translation>
    </message>
    <message>
        <source>Max answer tokens</source>
        <translation>Jetons max. de la réponse</translation>
    </message>
    <message>
        <source>claude program</source>
        <translation>Programme claude</translation>
    </message>
    <message>
        <source>Anthropic API key</source>
        <translation>Clé d&apos;API Anthropic</translation>
    </message>
    <message>
        <source>Secrets never go to lorekeeper.toml: the key is stored in the OS keyring.</source>
        <translation>Les secrets ne vont jamais dans lorekeeper.toml&#xa0;: la clé est stockée dans le trousseau du système.</translation>
    </message>
    <message>
        <source>empty: {0}</source>
        <translation>vide&#xa0;: {0}</translation>
    </message>
    <message>
        <source>Looking up the API key</source>
        <translation>Recherche de la clé d&apos;API</translation>
    </message>
    <message>
        <source>Saving model settings</source>
        <translation>Enregistrement des réglages du modèle</translation>
    </message>
</context>
<context>
    <name>LearningDialog</name>
    <message>
        <source>Edit learning</source>
        <translation>Modifier l&apos;apprentissage</translation>
    </message>
    <message>
        <source>Add learning</source>
        <translation>Ajouter un apprentissage</translation>
    </message>
    <message>
        <source>(no project)</source>
        <translation>(aucun projet)</translation>
    </message>
    <message>
        <source>comma-separated</source>
        <translation>séparées par des virgules</translation>
    </message>
    <message>
        <source>Rule</source>
        <translation>Règle</translation>
    </message>
    <message>
        <source>Project</source>
        <translation>Projet</translation>
    </message>
    <message>
        <source>Story</source>
        <translation>Story</translation>
    </message>
    <message>
        <source>Domain</source>
        <translation>Domaine</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>Étiquettes</translation>
    </message>
    <message>
        <source>Scope</source>
        <translation>Portée</translation>
    </message>
</context>
<context>
    <name>LearningsModel</name>
    <message>
        <source>When (UTC)</source>
        <translation>Quand (UTC)</translation>
    </message>
    <message>
        <source>Project</source>
        <translation>Projet</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Source</translation>
    </message>
    <message>
        <source>Scope</source>
        <translation>Portée</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Statut</translation>
    </message>
    <message>
        <source>Rule</source>
        <translation>Règle</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>Étiquettes</translation>
    </message>
    <message>
        <source>Loading learnings</source>
        <translation>Chargement des apprentissages</translation>
    </message>
    <message>
        <source>story {story}</source>
        <translation>story {story}</translation>
    </message>
    <message>
        <source>domain {domain}</source>
        <translation>domaine {domain}</translation>
    </message>
</context>
<context>
    <name>LearningsPanel</name>
    <message>
        <source>Any source</source>
        <translation>Toute source</translation>
    </message>
    <message>
        <source>Any scope</source>
        <translation>Toute portée</translation>
    </message>
    <message>
        <source>Active</source>
        <translation>Actifs</translation>
    </message>
    <message>
        <source>Archived</source>
        <translation>Archivés</translation>
    </message>
    <message>
        <source>Active and archived</source>
        <translation>Actifs et archivés</translation>
    </message>
    <message>
        <source>Search…</source>
        <translation>Chercher…</translation>
    </message>
    <message>
        <source>Add…</source>
        <translation>Ajouter…</translation>
    </message>
    <message>
        <source>Edit…</source>
        <translation>Modifier…</translation>
    </message>
    <message>
        <source>Archive</source>
        <translation>Archiver</translation>
    </message>
    <message>
        <source>Restore</source>
        <translation>Restaurer</translation>
    </message>
    <message>
        <source>Import learnings.md…</source>
        <translation>Importer learnings.md…</translation>
    </message>
    <message>
        <source>Export learnings.md…</source>
        <translation>Exporter learnings.md…</translation>
    </message>
    <message>
        <source>Learnings</source>
        <translation>Apprentissages</translation>
    </message>
    <message>
        <source>Rules learnt from corrections. A project&apos;s prompts carry its active rules (and the global-scope ones), newest first, within 2,000 characters.</source>
        <translation>Des règles apprises des corrections. Les prompts d&apos;un projet portent ses règles actives (et celles de portée globale), les plus récentes d&apos;abord, dans la limite de 2 000 caractères.</translation>
    </message>
    <message>
        <source>Loading projects</source>
        <translation>Chargement des projets</translation>
    </message>
    <message>
        <source>All projects</source>
        <translation>Tous les projets</translation>
    </message>
    <message>
        <source>No project</source>
        <translation>Aucun projet</translation>
    </message>
    <message numerus="yes">
        <source>%Ln learning(s)</source>
        <translation>
            <numerusform>%Ln apprentissage</numerusform>
            <numerusform>%Ln apprentissages</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>{verb} %n learning(s).</source>
        <translation>
            <numerusform>{verb}&#xa0;: %n apprentissage.</numerusform>
            <numerusform>{verb}&#xa0;: %n apprentissages.</numerusform>
        </translation>
    </message>
    <message>
        <source>Archive {n}</source>
        <translation>Archiver {n}</translation>
    </message>
    <message>
        <source>Search the rules, stories, domains and tags (Ctrl+F)</source>
        <translation>Chercher dans les règles, stories, domaines et étiquettes (Ctrl+F)</translation>
    </message>
    <message>
        <source>Restore {n}</source>
        <translation>Restaurer {n}</translation>
    </message>
    <message>
        <source>Saved learning {id}.</source>
        <translation>Apprentissage {id} enregistré.</translation>
    </message>
    <message>
        <source>Saving learning</source>
        <translation>Enregistrement de l&apos;apprentissage</translation>
    </message>
    <message>
        <source>Restored</source>
        <translation>Restaurés</translation>
    </message>
    <message>
        <source>{verb} learnings</source>
        <translation>{verb}&#xa0;: apprentissages</translation>
    </message>
    <message>
        <source>Import learnings.md</source>
        <translation>Importer learnings.md</translation>
    </message>
    <message>
        <source>Markdown (*.md);;All files (*)</source>
        <translation>Markdown (*.md);;Tous les fichiers (*)</translation>
    </message>
    <message>
        <source>; {n} line(s) between the rules kept as text</source>
        <translation>&#xa0;; {n} ligne(s) entre les règles conservée(s) comme texte</translation>
    </message>
    <message>
        <source>Imported {added} learning(s) into {0}, {unchanged} already there{skipped}.</source>
        <translation>{added} apprentissage(s) importé(s) dans {0}, {unchanged} déjà présent(s){skipped}.</translation>
    </message>
    <message>
        <source>no project</source>
        <translation>aucun projet</translation>
    </message>
    <message>
        <source>Importing learnings</source>
        <translation>Import des apprentissages</translation>
    </message>
    <message>
        <source>Export learnings.md</source>
        <translation>Exporter learnings.md</translation>
    </message>
    <message>
        <source>Markdown (*.md)</source>
        <translation>Markdown (*.md)</translation>
    </message>
    <message>
        <source>Exporting learnings</source>
        <translation>Export des apprentissages</translation>
    </message>
    <message>
        <source>Wrote {n} learning(s) of {0} to {path}.</source>
        <translation>{n} apprentissage(s) de {0} écrit(s) dans {path}.</translation>
    </message>
</context>
<context>
    <name>LedgerFilesModel</name>
    <message>
        <source>File</source>
        <translation>Fichier</translation>
    </message>
    <message>
        <source>Relevance</source>
        <translation>Pertinence</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>Mode</translation>
    </message>
    <message>
        <source>Original</source>
        <translation>Original</translation>
    </message>
    <message>
        <source>Sent</source>
        <translation>Envoyé</translation>
    </message>
    <message>
        <source>Dropped</source>
        <translation>Retiré</translation>
    </message>
    <message>
        <source>Why this mode</source>
        <translation>Pourquoi ce mode</translation>
    </message>
    <message>
        <source>
whole bodies: {0}</source>
        <translation>
corps entiers&#xa0;: {0}</translation>
    </message>
</context>
<context>
    <name>LedgerPanel</name>
    <message>
        <source>Source folder to pack</source>
        <translation>Dossier source à empaqueter</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Parcourir…</translation>
    </message>
    <message>
        <source>Task, e.g. fix the NaN bug in entropy.rs (optional)</source>
        <translation>Tâche, p. ex. corriger le bug NaN dans entropy.rs (facultatif)</translation>
    </message>
    <message>
        <source>Pack</source>
        <translation>Empaqueter</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
    <message>
        <source>Folder:</source>
        <translation>Dossier&#xa0;:</translation>
    </message>
    <message>
        <source>Task:</source>
        <translation>Tâche&#xa0;:</translation>
    </message>
    <message>
        <source>Budget:</source>
        <translation>Budget&#xa0;:</translation>
    </message>
    <message>
        <source>Window:</source>
        <translation>Fenêtre&#xa0;:</translation>
    </message>
    <message>
        <source>Mode:</source>
        <translation>Mode&#xa0;:</translation>
    </message>
    <message>
        <source>Choose a folder (and a task), then press Pack to see what an agent would receive, file by file.</source>
        <translation>Choisissez un dossier (et une tâche), puis cliquez sur Empaqueter pour voir ce qu&apos;un agent recevrait, fichier par fichier.</translation>
    </message>
    <message>
        <source>window: empty</source>
        <translation>fenêtre&#xa0;: vide</translation>
    </message>
    <message>
        <source>Re-injection plan and suggestions</source>
        <translation>Plan de réinjection et suggestions</translation>
    </message>
    <message>
        <source>Tokens by file and mode</source>
        <translation>Jetons par fichier et par mode</translation>
    </message>
    <message>
        <source>Original</source>
        <translation>Original</translation>
    </message>
    <message>
        <source>Sent</source>
        <translation>Envoyé</translation>
    </message>
    <message>
        <source>Compression ledger</source>
        <translation>Registre de compression</translation>
    </message>
    <message>
        <source>What a context pack sends for a task: relevance from the task&apos;s words, the import and call graphs (heat diffusion + PageRank), Boltzmann token budgets, and a mode per file. The budget is never exceeded and the pack is never larger than the files; every file&apos;s header says its mode and the tokens dropped. Same engine as `lorekeeper ctx pack`.</source>
        <translation>Ce qu&apos;un pack de contexte envoie pour une tâche&#xa0;: la pertinence à partir des mots de la tâche, des graphes d&apos;import et d&apos;appels (diffusion de chaleur + PageRank), des budgets de jetons de Boltzmann, et un mode par fichier. Le budget n&apos;est jamais dépassé et le pack n&apos;est jamais plus gros que les fichiers&#xa0;; l&apos;en-tête de chaque fichier indique son mode et les jetons retirés. Même moteur que `lorekeeper ctx pack`.</translation>
    </message>
    <message>
        <source>Folder to pack</source>
        <translation>Dossier à empaqueter</translation>
    </message>
    <message>
        <source>Choose a folder to pack first.</source>
        <translation>Choisissez d&apos;abord un dossier à empaqueter.</translation>
    </message>
    <message>
        <source>A pack is running: wait for it or Cancel it</source>
        <translation>Un pack est en cours : attendez-le ou annulez-le</translation>
    </message>
    <message>
        <source>starting…</source>
        <translation>démarrage…</translation>
    </message>
    <message>
        <source>Packing {name}</source>
        <translation>Empaquetage de {name}</translation>
    </message>
    <message>
        <source>cancelling…</source>
        <translation>annulation…</translation>
    </message>
    <message>
        <source>Pack cancelled: nothing changed.</source>
        <translation>Empaquetage annulé&#xa0;: rien n&apos;a changé.</translation>
    </message>
    <message>
        <source>Choose a folder to pack first (type it, or Browse…)</source>
        <translation>Choisissez d&apos;abord un dossier à packer (saisissez-le, ou Parcourir…)</translation>
    </message>
    <message>
        <source>Pack the folder for the task (Enter in the folder or task field)</source>
        <translation>Packer le dossier pour la tâche (Entrée dans le champ dossier ou tâche)</translation>
    </message>
    <message>
        <source>Pressure: —</source>
        <translation>Pression&#xa0;: —</translation>
    </message>
    <message>
        <source>done in {seconds:.2f}s</source>
        <translation>terminé en {seconds:.2f} s</translation>
    </message>
    <message>
        <source>{task_type}, scope {scope}, specificity {specificity}</source>
        <translation>{task_type}, portée {scope}, spécificité {specificity}</translation>
    </message>
    <message>
        <source>no task</source>
        <translation>aucune tâche</translation>
    </message>
    <message>
        <source>{n} files: {input_tokens:,} → {output_tokens:,} tokens ({0:.1%} less, limit {cap:,}) · {task}</source>
        <translation>{n} fichiers&#xa0;: {input_tokens:,} → {output_tokens:,} jetons ({0:.1%} de moins, limite {cap:,}) · {task}</translation>
    </message>
    <message>
        <source>{used:,} of {window:,} tokens ({utilization:.1%})</source>
        <translation>{used:,} sur {window:,} jetons ({utilization:.1%})</translation>
    </message>
    <message>
        <source>Pressure: {pressure} (compress from {PRESSURE_COMPRESS:.0%}, evict from {PRESSURE_EVICT:.0%})</source>
        <translation>Pression&#xa0;: {pressure} (compression dès {PRESSURE_COMPRESS:.0%}, éviction dès {PRESSURE_EVICT:.0%})</translation>
    </message>
    <message>
        <source>{path}: {from_mode} → {to_mode} (frees {saves:,} tokens)</source>
        <translation>{path}&#xa0;: {from_mode} → {to_mode} (libère {saves:,} jetons)</translation>
    </message>
    <message>
        <source>protected (task targets): {0}</source>
        <translation>protégés (cibles de la tâche)&#xa0;: {0}</translation>
    </message>
    <message>
        <source>No re-injection needed: the window is below the compress level.</source>
        <translation>Aucune réinjection nécessaire&#xa0;: la fenêtre est sous le seuil de compression.</translation>
    </message>
    <message>
        <source>Nothing left to downgrade: every file still in the window is a target of the task.</source>
        <translation>Plus rien à rétrograder&#xa0;: chaque fichier encore dans la fenêtre est une cible de la tâche.</translation>
    </message>
    <message>
        <source>suggest: {d}</source>
        <translation>suggestion&#xa0;: {d}</translation>
    </message>
    <message>
        <source>Sent: {mode}, {sent_tokens:,} tokens</source>
        <translation>Envoyé&#xa0;: {mode}, {sent_tokens:,} jetons</translation>
    </message>
    <message>
        <source>Original: {rel}, {original_tokens:,} tokens</source>
        <translation>Original&#xa0;: {rel}, {original_tokens:,} jetons</translation>
    </message>
    <message>
        <source>Reading file</source>
        <translation>Lecture du fichier</translation>
    </message>
</context>
<context>
    <name>LibraryActions</name>
    <message>
        <source>Import…</source>
        <translation>Importer…</translation>
    </message>
    <message>
        <source>Skill folder…</source>
        <translation>Dossier de skill…</translation>
    </message>
    <message>
        <source>Zip archive…</source>
        <translation>Archive zip…</translation>
    </message>
    <message>
        <source>Fork to project…</source>
        <translation>Forker dans un projet…</translation>
    </message>
    <message>
        <source>Delete fork</source>
        <translation>Supprimer le fork</translation>
    </message>
    <message>
        <source>Import a skill folder (or a folder of skill folders)</source>
        <translation>Importer un dossier de skill (ou un dossier de dossiers de skills)</translation>
    </message>
    <message>
        <source>Import skills from a zip</source>
        <translation>Importer des skills depuis un zip</translation>
    </message>
    <message>
        <source>Zip archives (*.zip)</source>
        <translation>Archives zip (*.zip)</translation>
    </message>
    <message>
        <source> into project {project}</source>
        <translation> dans le projet {project}</translation>
    </message>
    <message>
        <source>Imported {name}{where}: </source>
        <translation>{name} importé{where}&#xa0;: </translation>
    </message>
    <message>
        <source>nothing to do</source>
        <translation>rien à faire</translation>
    </message>
    <message>
        <source>Imported {name}</source>
        <translation>{name} importé</translation>
    </message>
    <message>
        <source>imported from {name}</source>
        <translation>importé depuis {name}</translation>
    </message>
    <message>
        <source>Importing {name}</source>
        <translation>Import de {name}</translation>
    </message>
    <message>
        <source>Importing {name} — the next import can start when it finishes, or cancel it (Cancel in the status bar)</source>
        <translation>Import de {name} — le prochain import pourra démarrer à la fin de celui-ci, ou annulez-le (Annuler dans la barre d&apos;état)</translation>
    </message>
    <message>
        <source>Fork to project</source>
        <translation>Forker dans un projet</translation>
    </message>
    <message>
        <source>Fork {name} for project (pick one or type a new name):</source>
        <translation>Forker {name} pour le projet (choisissez-en un ou saisissez un nouveau nom)&#xa0;:</translation>
    </message>
    <message>
        <source>Forking {name}</source>
        <translation>Fork de {name}</translation>
    </message>
    <message>
        <source>Forked {name} for {project} (v{version})</source>
        <translation>{name} forkée pour {project} (v{version})</translation>
    </message>
    <message>
        <source>Delete the fork of {name} for project {project}, with its whole history? The global skill stays.</source>
        <translation>Supprimer le fork de {name} pour le projet {project}, avec tout son historique&#xa0;? La skill globale reste.</translation>
    </message>
    <message>
        <source>Deleting fork of {name}</source>
        <translation>Suppression du fork de {name}</translation>
    </message>
    <message>
        <source>Deleted the {project} fork of {name}</source>
        <translation>Fork {project} de {name} supprimé</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Lorekeeper — {name}</source>
        <translation>Lorekeeper — {name}</translation>
    </message>
    <message>
        <source>Workspace: {name}</source>
        <translation>Espace de travail&#xa0;: {name}</translation>
    </message>
    <message>
        <source>Model: {provider}</source>
        <translation>Modèle&#xa0;: {provider}</translation>
    </message>
    <message>
        <source>none</source>
        <translation>aucun</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
    <message>
        <source>Cancel the running jobs (the arrow: one of them)</source>
        <translation>Annuler les tâches en cours (la flèche&#xa0;: l&apos;une d&apos;elles)</translation>
    </message>
    <message>
        <source>Cancel {name}</source>
        <translation>Annuler {name}</translation>
    </message>
    <message>
        <source>Idle</source>
        <translation>Inactif</translation>
    </message>
    <message numerus="yes">
        <source>%n job(s): {names}</source>
        <translation>
            <numerusform>%n tâche&#xa0;: {names}</numerusform>
            <numerusform>%n tâches&#xa0;: {names}</numerusform>
        </translation>
    </message>
    <message>
        <source>{name} failed — {0}</source>
        <translation>{name} a échoué — {0}</translation>
    </message>
    <message>
        <source>(not written: {log_exc})</source>
        <translation>(non écrit&#xa0;: {log_exc})</translation>
    </message>
    <message>
        <source>{name} failed — ERR_INTERNAL: {error_type}</source>
        <translation>{name} a échoué — ERR_INTERNAL&#xa0;: {error_type}</translation>
    </message>
    <message>
        <source>Go to {title}</source>
        <translation>Aller à {title}</translation>
    </message>
    <message>
        <source>Refreshed</source>
        <translation>Actualisé</translation>
    </message>
</context>
<context>
    <name>MemoryPanel</name>
    <message>
        <source>Rebuild indexes</source>
        <translation>Reconstruire les index</translation>
    </message>
    <message>
        <source>Rebuild every corpus&apos;s FAISS index from the store (progress and Cancel in the status bar)</source>
        <translation>Reconstruire l&apos;index FAISS de chaque corpus à partir du store (progression et Annuler dans la barre d&apos;état)</translation>
    </message>
    <message>
        <source>Search</source>
        <translation>Chercher</translation>
    </message>
    <message>
        <source>Injection preview</source>
        <translation>Aperçu de l&apos;injection</translation>
    </message>
    <message>
        <source>Clarify</source>
        <translation>Clarifier</translation>
    </message>
    <message>
        <source>Measures</source>
        <translation>Mesures</translation>
    </message>
    <message>
        <source>Corpora and indexes</source>
        <translation>Corpus et index</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>Mémoire</translation>
    </message>
    <message>
        <source>Research notes, validated clarification summaries (never their verbatim) and learnings, indexed with FAISS and BM25. Each story starts with exactly 5 learnings + 3 notes + 3 clarifications, traced and signed before they are injected.</source>
        <translation>Notes de recherche, résumés de clarification validés (jamais leur verbatim) et apprentissages, indexés avec FAISS et BM25. Chaque story démarre avec exactement 5 apprentissages + 3 notes + 3 clarifications, tracés et signés avant d&apos;être injectés.</translation>
    </message>
    <message>
        <source>Search the memory…</source>
        <translation>Chercher en mémoire…</translation>
    </message>
    <message>
        <source>Search the memory: BM25 and vectors, fused; Enter searches</source>
        <translation>Chercher dans la mémoire&#xa0;: BM25 et vecteurs, fusionnés&#xa0;; Entrée lance la recherche</translation>
    </message>
    <message>
        <source>Corpus</source>
        <translation>Corpus</translation>
    </message>
    <message>
        <source>Impact</source>
        <translation>Impact</translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation>Verdict</translation>
    </message>
    <message>
        <source>Story:</source>
        <translation>Story&#xa0;:</translation>
    </message>
    <message>
        <source>PD-42</source>
        <translation>PD-42</translation>
    </message>
    <message>
        <source>Story</source>
        <translation>Story</translation>
    </message>
    <message>
        <source>Domain</source>
        <translation>Domaine</translation>
    </message>
    <message>
        <source>Project</source>
        <translation>Projet</translation>
    </message>
    <message>
        <source>Summarise (no personal data kept)</source>
        <translation>Résumer (aucune donnée personnelle conservée)</translation>
    </message>
    <message>
        <source>The structured summary appears here for your validation.</source>
        <translation>Le résumé structuré s&apos;affiche ici pour votre validation.</translation>
    </message>
    <message>
        <source>Validate  (Ctrl+Return)</source>
        <translation>Valider  (Ctrl+Entrée)</translation>
    </message>
    <message>
        <source>Reject  (Esc)</source>
        <translation>Rejeter  (Échap)</translation>
    </message>
    <message>
        <source>Last {d} days</source>
        <translation>{d} derniers jours</translation>
    </message>
    <message>
        <source>Window:</source>
        <translation>Fenêtre&#xa0;:</translation>
    </message>
    <message>
        <source>Memory status</source>
        <translation>État de la mémoire</translation>
    </message>
    <message>
        <source>Stories</source>
        <translation>Stories</translation>
    </message>
    <message>
        <source>Rebuilding memory indexes</source>
        <translation>Reconstruction des index de la mémoire</translation>
    </message>
    <message>
        <source>Indexes rebuilt.</source>
        <translation>Index reconstruits.</translation>
    </message>
    <message>
        <source>Searching the memory</source>
        <translation>Recherche dans la mémoire</translation>
    </message>
    <message>
        <source>No story yet: `lorekeeper story start STORY --domain D --project P`.</source>
        <translation>Aucune story pour l&apos;instant&#xa0;: `lorekeeper story start STORY --domain D --project P`.</translation>
    </message>
    <message>
        <source>(no traced injection for this story)</source>
        <translation>(aucune injection tracée pour cette story)</translation>
    </message>
    <message>
        <source>The block of the story&apos;s latest traced injection, as the agent received it.</source>
        <translation>Le bloc de la dernière injection tracée de la story, tel que l&apos;agent l&apos;a reçu.</translation>
    </message>
    <message>
        <source>Summarising the clarification</source>
        <translation>Résumé de la clarification</translation>
    </message>
    <message>
        <source>Saving the clarification</source>
        <translation>Enregistrement de la clarification</translation>
    </message>
    <message>
        <source>Saved {path} (kept until {retention_until}).</source>
        <translation>{path} enregistré (conservé jusqu&apos;au {retention_until}).</translation>
    </message>
    <message>
        <source>Rejected: nothing was kept.</source>
        <translation>Rejeté&#xa0;: rien n&apos;a été conservé.</translation>
    </message>
    <message>
        <source>Memory measures</source>
        <translation>Mesures de la mémoire</translation>
    </message>
</context>
<context>
    <name>OpeningScreen</name>
    <message>
        <source>{APP_NAME} — opening the workspace</source>
        <extracomment>the longest a launch waits for the window system to expose the splash before it goes on</extracomment>
        <translation>{APP_NAME} — ouverture de l&apos;espace de travail</translation>
    </message>
    <message>
        <source>Opening workspace…</source>
        <translation>Ouverture de l&apos;espace de travail…</translation>
    </message>
    <message>
        <source>the workspace</source>
        <translation>l&apos;espace de travail</translation>
    </message>
    <message>
        <source>Reading the configuration…</source>
        <translation>Lecture de la configuration…</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
    <message>
        <source>Stop waiting: back to a screen with Retry</source>
        <translation>Arrêter d&apos;attendre&#xa0;: retour à un écran avec Réessayer</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>Quitter</translation>
    </message>
</context>
<context>
    <name>PagedRowsModel</name>
    <message>
        <source>Loading</source>
        <translation>Chargement</translation>
    </message>
    <message>
        <source>Click to sort every row by {0} (click again to reverse)</source>
        <extracomment>column -&gt; the service&apos;s `order_by` name; a header without one does not sort</extracomment>
        <translation>Cliquer pour trier toutes les lignes par {0} (cliquer à nouveau pour inverser)</translation>
    </message>
    <message>
        <source>This column does not sort</source>
        <translation>Cette colonne ne se trie pas</translation>
    </message>
</context>
<context>
    <name>PassRateChart</name>
    <message>
        <source>pass %</source>
        <translation>% réussite</translation>
    </message>
</context>
<context>
    <name>PlaygroundPanel</name>
    <message>
        <source>Model settings…</source>
        <translation>Réglages du modèle…</translation>
    </message>
    <message>
        <source>Project:</source>
        <translation>Projet&#xa0;:</translation>
    </message>
    <message>
        <source>Message to the model, e.g. “review this PR for XSS”  (Ctrl+Enter sends)</source>
        <translation>Message au modèle, p. ex. «&#xa0;relis cette PR pour les failles XSS&#xa0;»  (Ctrl+Entrée envoie)</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>Envoyer</translation>
    </message>
    <message>
        <source>Send the assembled prompt to the model (Ctrl+Enter)</source>
        <translation>Envoyer le prompt assemblé au modèle (Ctrl+Entrée)</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Arrêter</translation>
    </message>
    <message>
        <source>Send the message</source>
        <translation>Envoyer le message</translation>
    </message>
    <message>
        <source>Routed skills: —</source>
        <translation>Skills routées&#xa0;: —</translation>
    </message>
    <message>
        <source>Assembled prompt</source>
        <translation>Prompt assemblé</translation>
    </message>
    <message>
        <source>The prompt the model will get: SKILLS_HINT, LEARNINGS, then your message.</source>
        <translation>Le prompt que le modèle recevra&#xa0;: SKILLS_HINT, LEARNINGS, puis votre message.</translation>
    </message>
    <message>
        <source>The model&apos;s answer streams here.</source>
        <translation>La réponse du modèle s&apos;affiche ici au fil de l&apos;eau.</translation>
    </message>
    <message>
        <source>Fix It</source>
        <translation>Fix It</translation>
    </message>
    <message>
        <source>Write the correction: it becomes a learning and the fix request is sent at once</source>
        <translation>Écrivez la correction&#xa0;: elle devient un apprentissage et la demande de correction part aussitôt</translation>
    </message>
    <message>
        <source>Thumbs up</source>
        <translation>Pouce levé</translation>
    </message>
    <message>
        <source>Good answer (positive feedback for the routed skills)</source>
        <translation>Bonne réponse (retour positif pour les skills routées)</translation>
    </message>
    <message>
        <source>Thumbs down</source>
        <translation>Pouce baissé</translation>
    </message>
    <message>
        <source>Bad answer: negative feedback and a learning</source>
        <translation>Mauvaise réponse&#xa0;: retour négatif et un apprentissage</translation>
    </message>
    <message>
        <source>Answer</source>
        <translation>Réponse</translation>
    </message>
    <message>
        <source>Playground</source>
        <translation>Bac à sable</translation>
    </message>
    <message>
        <source>Talk to the configured model through Lorekeeper: the router hints skills, learnings ride along, evals check each answer. Fix It and thumbs down turn a bad answer into a rule for every next prompt.</source>
        <translation>Parlez au modèle configuré à travers Lorekeeper&#xa0;: le routeur suggère des skills, les apprentissages suivent, les évals vérifient chaque réponse. Fix It et le pouce baissé transforment une mauvaise réponse en règle pour chaque prochain prompt.</translation>
    </message>
    <message>
        <source>Loading playground</source>
        <translation>Chargement du bac à sable</translation>
    </message>
    <message>
        <source>Example</source>
        <translation>Exemple</translation>
    </message>
    <message>
        <source>Eval: all rules passed</source>
        <translation>Éval&#xa0;: toutes les règles sont respectées</translation>
    </message>
    <message>
        <source>   (example answer: no model call)</source>
        <translation>   (réponse d&apos;exemple&#xa0;: aucun appel au modèle)</translation>
    </message>
    <message>
        <source>Model: {provider}{model}</source>
        <translation>Modèle&#xa0;: {provider}{model}</translation>
    </message>
    <message>
        <source>Model unavailable — {reason}</source>
        <translation>Modèle indisponible — {reason}</translation>
    </message>
    <message>
        <source>Assembling prompt</source>
        <translation>Assemblage du prompt</translation>
    </message>
    <message>
        <source>Routed skills: {skills}</source>
        <translation>Skills routées&#xa0;: {skills}</translation>
    </message>
    <message>
        <source>Routed skills: none (no trigger or keyword matched)</source>
        <translation>Skills routées&#xa0;: aucune (aucun déclencheur ni mot-clé reconnu)</translation>
    </message>
    <message>
        <source>, {dropped} left out by the 2,000-character budget</source>
        <translation>, {dropped} écarté(s) par le budget de 2 000 caractères</translation>
    </message>
    <message numerus="yes">
        <source>%Ln character(s)</source>
        <translation>
            <numerusform>%Ln caractère</numerusform>
            <numerusform>%Ln caractères</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> · %n learning(s)</source>
        <translation>
            <numerusform> · %n apprentissage</numerusform>
            <numerusform> · %n apprentissages</numerusform>
        </translation>
    </message>
    <message>
        <source>Type a message first.</source>
        <translation>Saisissez d&apos;abord un message.</translation>
    </message>
    <message>
        <source>Asking the model</source>
        <translation>Interrogation du modèle</translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation>Arrêté.</translation>
    </message>
    <message>
        <source>Eval: no skill routed, nothing to check</source>
        <translation>Éval&#xa0;: aucune skill routée, rien à vérifier</translation>
    </message>
    <message>
        <source>Answer {interaction}</source>
        <translation>Réponse {interaction}</translation>
    </message>
    <message>
        <source>From the command line: lorekeeper feedback up|down {interaction}, lorekeeper fixit {interaction} --rule TEXT</source>
        <translation>En ligne de commande&#xa0;: lorekeeper feedback up|down {interaction}, lorekeeper fixit {interaction} --rule TEXTE</translation>
    </message>
    <message>
        <source>Sending the fix</source>
        <translation>Envoi de la correction</translation>
    </message>
    <message>
        <source>Learning {id} saved: {rule}</source>
        <translation>Apprentissage {id} enregistré&#xa0;: {rule}</translation>
    </message>
    <message>
        <source>Saving feedback</source>
        <translation>Enregistrement du retour</translation>
    </message>
    <message>
        <source>Thanks: positive feedback recorded.</source>
        <translation>Merci&#xa0;: retour positif enregistré.</translation>
    </message>
    <message>
        <source>Negative feedback recorded; learning {id} saved: {rule}</source>
        <translation>Retour négatif enregistré&#xa0;; apprentissage {id} enregistré&#xa0;: {rule}</translation>
    </message>
    <message>
        <source>Model: {provider}{shown}</source>
        <translation>Modèle&#xa0;: {provider}{shown}</translation>
    </message>
</context>
<context>
    <name>ProgressLine</name>
    <message>
        <source>{reviewed} of {whole} reviewed</source>
        <translation>{reviewed} sur {whole} revu(s)</translation>
    </message>
    <message>
        <source>Nothing to review</source>
        <translation>Rien à revoir</translation>
    </message>
    <message>
        <source>{noun} {0} of {remaining}</source>
        <translation>{noun} {0} sur {remaining}</translation>
    </message>
</context>
<context>
    <name>ProposalDetail</name>
    <message>
        <source>&lt;p&gt;Select a proposal to see its card and the change it makes.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Sélectionnez une proposition pour voir sa fiche et le changement qu&apos;elle apporte.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Benchmark: {text}</source>
        <translation>Benchmark&#xa0;: {text}</translation>
    </message>
    <message>
        <source>Benchmark: not run (press B)</source>
        <translation>Benchmark&#xa0;: pas lancé (appuyez sur B)</translation>
    </message>
    <message>
        <source>Current (v{base_version})</source>
        <translation>Actuelle (v{base_version})</translation>
    </message>
    <message>
        <source>Current (v{0}, restores v{1})</source>
        <translation>Actuelle (v{0}, restaure v{1})</translation>
    </message>
    <message>
        <source>Proposed</source>
        <translation>Proposée</translation>
    </message>
    <message>
        <source> (now v{applied_version})</source>
        <translation> (désormais v{applied_version})</translation>
    </message>
</context>
<context>
    <name>ProposalsModel</name>
    <message>
        <source>Skill</source>
        <translation>Skill</translation>
    </message>
    <message>
        <source>Project</source>
        <translation>Projet</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Source</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Statut</translation>
    </message>
    <message>
        <source>Benchmark</source>
        <translation>Benchmark</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Raison</translation>
    </message>
</context>
<context>
    <name>ProposalsPanel</name>
    <message>
        <source>Run benchmark (B)</source>
        <translation>Lancer le benchmark (B)</translation>
    </message>
    <message>
        <source>Anyone</source>
        <translation>Tout le monde</translation>
    </message>
    <message>
        <source>Show:</source>
        <translation>Afficher&#xa0;:</translation>
    </message>
    <message>
        <source>By:</source>
        <translation>Par :</translation>
    </message>
    <message>
        <source>proposal</source>
        <translation>proposition</translation>
    </message>
    <message>
        <source>Undo the decision (an approval restores the backed-up version)</source>
        <translation>Annuler la décision (une approbation restaure la version sauvegardée)</translation>
    </message>
    <message>
        <source>Run the A/B benchmark of the selected proposal</source>
        <translation>Lancer le benchmark A/B de la proposition sélectionnée</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Actualiser</translation>
    </message>
    <message>
        <source>Edit &amp;&amp; approve (E)</source>
        <translation>Modifier &amp;&amp; approuver (E)</translation>
    </message>
    <message>
        <source>Edit the proposed SKILL.md, then approve your edit (signed with the decision)</source>
        <translation>Modifier le SKILL.md proposé, puis approuver votre version (signée avec la décision)</translation>
    </message>
    <message>
        <source>Proposals</source>
        <translation>Propositions</translation>
    </message>
    <message>
        <source>Skill improvements waiting for your decision: from the nightly analysis (templates, no model) and from Sage (model-written, benchmarked). Approve keeps the current version in the skill&apos;s history; press ? for the keyboard shortcuts.</source>
        <translation>Les améliorations de skills qui attendent votre décision&#xa0;: de l&apos;analyse nocturne (templates, sans modèle) et de Sage (écrites par le modèle, avec benchmark). Approuver garde la version actuelle dans l&apos;historique de la skill&#xa0;; appuyez sur&#xa0;? pour les raccourcis clavier.</translation>
    </message>
    <message>
        <source>Loading proposals</source>
        <translation>Chargement des propositions</translation>
    </message>
    <message>
        <source>{pending} pending · {approved} approved · {rejected} rejected</source>
        <translation>{pending} en attente · {approved} approuvée(s) · {rejected} rejetée(s)</translation>
    </message>
    <message>
        <source>No pending proposal. Run the nightly analysis (or `lorekeeper nightly`) to look for underperforming skills, or ask Sage.</source>
        <translation>Aucune proposition en attente. Lancez l&apos;analyse nocturne (ou `lorekeeper nightly`) pour chercher les skills sous-performantes, ou demandez à Sage.</translation>
    </message>
    <message>
        <source>No {status} proposal.</source>
        <translation>Aucune proposition ({status}).</translation>
    </message>
    <message>
        <source>No proposal yet.</source>
        <translation>Aucune proposition pour l&apos;instant.</translation>
    </message>
    <message>
        <source>Last {kind} run #{run_id} ({0} UTC): {skills_checked} skill(s) checked, {n} underperforming, {n2} proposal(s) created, {n3} skipped</source>
        <translation>Dernière exécution {kind} n° {run_id} ({0} UTC)&#xa0;: {skills_checked} skill(s) vérifiée(s), {n} sous-performante(s), {n2} proposition(s) créée(s), {n3} ignorée(s)</translation>
    </message>
    <message>
        <source>nightly</source>
        <translation>nocturne</translation>
    </message>
    <message>
        <source>Sage</source>
        <translation>Sage</translation>
    </message>
    <message>
        <source>, {n} error(s)</source>
        <translation>, {n} erreur(s)</translation>
    </message>
    <message>
        <source>Proposal #{id} is {status}: only a pending proposal can be approved.</source>
        <translation>La proposition n° {id} est {status}&#xa0;: seule une proposition en attente peut être approuvée.</translation>
    </message>
    <message>
        <source>Approved {0} proposals (Ctrl+Z or H undoes them)</source>
        <translation>{0} propositions approuvées (Ctrl+Z ou H les annule)</translation>
    </message>
    <message>
        <source>Rejected {0} proposals (Ctrl+Z or H undoes them)</source>
        <translation>{0} propositions rejetées (Ctrl+Z ou H les annule)</translation>
    </message>
    <message>
        <source>Undid {0} decisions: the proposals are pending again</source>
        <translation>{0} décisions annulées : les propositions sont de nouveau en attente</translation>
    </message>
    <message>
        <source>Approved with your edits</source>
        <translation>Approuvée avec vos modifications</translation>
    </message>
    <message>
        <source>Undid #{0} ({1}): v{2} restores v{3}, no net change since v{3} (v{4} stays in the history); pending again</source>
        <translation>#{0} ({1}) annulée : v{2} restaure v{3}, aucun changement net depuis v{3} (v{4} reste dans l&apos;historique) ; de nouveau en attente</translation>
    </message>
    <message>
        <source>: now v{applied_version}, v{base_version} kept in its history</source>
        <translation>&#xa0;: désormais v{applied_version}, v{base_version} gardée dans son historique</translation>
    </message>
    <message>
        <source>: pending again</source>
        <translation>&#xa0;: de nouveau en attente</translation>
    </message>
    <message>
        <source>{what} proposal #{id}</source>
        <translation>{what}&#xa0;: proposition n° {id}</translation>
    </message>
    <message>
        <source>Benchmark #{id} of proposal #{proposal_id}: {badge}</source>
        <translation>Benchmark n° {id} de la proposition n° {proposal_id}&#xa0;: {badge}</translation>
    </message>
    <message>
        <source>Benchmark #{id}</source>
        <translation>Benchmark n° {id}</translation>
    </message>
    <message>
        <source>Benchmark running on proposal #{id} — approve or reject it when it finishes, or cancel it (Esc)</source>
        <translation>Benchmark en cours sur la proposition n° {id} — approuvez-la ou rejetez-la à la fin, ou annulez-le (Échap)</translation>
    </message>
    <message>
        <source>Benchmark cancelled: nothing was stored.</source>
        <translation>Benchmark annulé&#xa0;: rien n&apos;a été enregistré.</translation>
    </message>
</context>
<context>
    <name>PurgePanel</name>
    <message>
        <source>Story id (e.g. PD-42): filters the history, shows what a purge erases</source>
        <translation>Id de story (p. ex. PD-42)&#xa0;: filtre l&apos;historique, montre ce qu&apos;une purge efface</translation>
    </message>
    <message>
        <source>Purge story…</source>
        <translation>Purger la story…</translation>
    </message>
    <message>
        <source>Verify again</source>
        <translation>Vérifier à nouveau</translation>
    </message>
    <message>
        <source>History</source>
        <translation>Historique</translation>
    </message>
    <message>
        <source>Retention preview</source>
        <translation>Aperçu de la rétention</translation>
    </message>
    <message>
        <source>Run retention now</source>
        <translation>Lancer la rétention maintenant</translation>
    </message>
    <message>
        <source>Purge runs</source>
        <translation>Purges</translation>
    </message>
    <message>
        <source>GDPR erasure (right to be forgotten) and the daily retention of clarification summaries: each run erases store rows, FAISS vectors, embedding rows, cache entries, session-log events (replaced by signed tombstones, so the chain still verifies) and the markdown summary, then verifies every artefact byte for byte.</source>
        <translation>Effacement RGPD (droit à l&apos;oubli) et rétention quotidienne des résumés de clarification&#xa0;: chaque exécution efface les lignes du store, les vecteurs FAISS, les lignes d&apos;embeddings, les entrées de cache, les événements du journal de session (remplacés par des tombstones signés, pour que la chaîne reste vérifiable) et le résumé markdown, puis vérifie chaque artefact octet par octet.</translation>
    </message>
    <message>
        <source>Loading purge runs</source>
        <translation>Chargement des purges</translation>
    </message>
    <message>
        <source>{story}: a purge now erases {what}.</source>
        <translation>{story}&#xa0;: une purge effacerait maintenant {what}.</translation>
    </message>
    <message>
        <source>{story}: nothing is stored for it.</source>
        <translation>{story}&#xa0;: rien n&apos;est stocké pour elle.</translation>
    </message>
    <message>
        <source>Type a story id to see what a purge of it would erase.</source>
        <translation>Saisissez un id de story pour voir ce qu&apos;une purge effacerait.</translation>
    </message>
    <message>
        <source>Purge {story}…</source>
        <translation>Purger {story}…</translation>
    </message>
    <message>
        <source>{story} — expired {retention_until}: {0}</source>
        <translation>{story} — expirée le {retention_until}&#xa0;: {0}</translation>
    </message>
    <message>
        <source>{story} — kept until {retention_until}</source>
        <translation>{story} — conservée jusqu&apos;au {retention_until}</translation>
    </message>
    <message>
        <source> Next expiry: {story} after {retention_until}.</source>
        <translation> Prochaine expiration&#xa0;: {story} après le {retention_until}.</translation>
    </message>
    <message>
        <source>Nothing is stored for this story: there is nothing to purge.</source>
        <translation>Rien n&apos;est stocké pour cette story&#xa0;: il n&apos;y a rien à purger.</translation>
    </message>
    <message>
        <source>Type a story id first.</source>
        <translation>Saisissez d&apos;abord un id de story.</translation>
    </message>
    <message>
        <source>No purge run erased a story like {story!r}.</source>
        <translation>Aucune purge n&apos;a effacé de story comme {story!r}.</translation>
    </message>
    <message numerus="yes">
        <source>The next daily run erases %n summary(-ies) (retention_until before {today}; a summary is kept on its last day).</source>
        <translation>
            <numerusform>La prochaine exécution quotidienne efface %n résumé (retention_until avant le {today}&#xa0;; un résumé est conservé le dernier jour).</numerusform>
            <numerusform>La prochaine exécution quotidienne efface %n résumés (retention_until avant le {today}&#xa0;; un résumé est conservé le dernier jour).</numerusform>
        </translation>
    </message>
    <message>
        <source>By (operator)</source>
        <translation>Par (opérateur)</translation>
    </message>
    <message>
        <source>nothing left</source>
        <translation>plus rien</translation>
    </message>
    <message>
        <source>No purge run by {by!r} erased a story like {story!r}.</source>
        <translation>Aucune purge par {by!r} n&apos;a effacé de story comme {story!r}.</translation>
    </message>
    <message>
        <source>No purge run by {by!r}.</source>
        <translation>Aucune purge par {by!r}.</translation>
    </message>
    <message numerus="yes">
        <source>%Ln run(s)</source>
        <translation>
            <numerusform>%Ln exécution</numerusform>
            <numerusform>%Ln exécutions</numerusform>
        </translation>
    </message>
    <message>
        <source>Select a run to see what it erased and how it was verified.</source>
        <translation>Sélectionnez une exécution pour voir ce qu&apos;elle a effacé et comment elle a été vérifiée.</translation>
    </message>
    <message>
        <source>Run #{id} ({mode}) by {0}, started {started_at}, </source>
        <translation>Exécution n° {id} ({mode}) par {0}, démarrée le {started_at}, </translation>
    </message>
    <message>
        <source>verified {verified_at}</source>
        <translation>vérifiée le {verified_at}</translation>
    </message>
    <message>
        <source>not verified yet</source>
        <translation>pas encore vérifiée</translation>
    </message>
    <message>
        <source>remains: {r}</source>
        <translation>reste&#xa0;: {r}</translation>
    </message>
    <message>
        <source>note: {n}</source>
        <translation>note&#xa0;: {n}</translation>
    </message>
    <message>
        <source>Counting {story}</source>
        <translation>Décompte de {story}</translation>
    </message>
    <message>
        <source>Purge {story}?</source>
        <translation>Purger {story}&#xa0;?</translation>
    </message>
    <message>
        <source>Purging {story}</source>
        <translation>Purge de {story}</translation>
    </message>
    <message>
        <source>Erase the summaries past their retention date?

</source>
        <translation>Effacer les résumés dont la date de rétention est passée&#xa0;?

</translation>
    </message>
    <message>
        <source>Run retention now?</source>
        <translation>Lancer la rétention maintenant&#xa0;?</translation>
    </message>
    <message>
        <source>Retention purge</source>
        <translation>Purge de rétention</translation>
    </message>
    <message>
        <source>{name} in progress — a new purge can start when it finishes (cancelled, it resumes from its journal at the next run)</source>
        <translation>{name} en cours — une nouvelle purge pourra démarrer à la fin de celle-ci (annulée, elle reprend depuis son journal à la prochaine exécution)</translation>
    </message>
    <message>
        <source>nothing due</source>
        <translation>rien à échéance</translation>
    </message>
    <message>
        <source>Purged {who}: {0}. Verified.</source>
        <translation>{who} purgé(s)&#xa0;: {0}. Vérifié.</translation>
    </message>
    <message>
        <source>ERR_PURGE_INCOMPLETE: </source>
        <translation>ERR_PURGE_INCOMPLETE&#xa0;: </translation>
    </message>
    <message>
        <source>Verifying purge #{id}</source>
        <translation>Vérification de la purge n° {id}</translation>
    </message>
    <message>
        <source>Purge #{id} verified again: nothing of {0} is back.</source>
        <translation>Purge n° {id} vérifiée à nouveau&#xa0;: rien de {0} n&apos;est revenu.</translation>
    </message>
    <message>
        <source>ERR_PURGE_INCOMPLETE: purge #{id}: </source>
        <translation>ERR_PURGE_INCOMPLETE&#xa0;: purge n° {id}&#xa0;: </translation>
    </message>
</context>
<context>
    <name>QualityPanel</name>
    <message>
        <source>Window:</source>
        <translation>Fenêtre&#xa0;:</translation>
    </message>
    <message>
        <source>Project:</source>
        <translation>Projet&#xa0;:</translation>
    </message>
    <message>
        <source>Success rate per day — all skills</source>
        <translation>Taux de réussite par jour — toutes les skills</translation>
    </message>
    <message>
        <source>success %</source>
        <translation>% réussite</translation>
    </message>
    <message>
        <source>feedback</source>
        <translation>retours</translation>
    </message>
    <message>
        <source>Feedback per day (thumbs up above, thumbs down below)</source>
        <translation>Retours par jour (pouces levés au-dessus, pouces baissés en dessous)</translation>
    </message>
    <message>
        <source>Quality</source>
        <translation>Qualité</translation>
    </message>
    <message>
        <source>Skill health per skill scope (the global skill or a project&apos;s fork) from the answers since its current version and its last reviewed proposal: applied count, success rate (no warning rule failed) and feedback. Underperforming: applied ≥ {MIN_APPLIED} and success &lt; {0} or more thumbs down than up — the skills the nightly run proposes to fix. Worst first.</source>
        <translation>Santé de chaque skill par portée (la skill globale ou le fork d&apos;un projet), d&apos;après les réponses depuis sa version actuelle et sa dernière proposition revue&#xa0;: nombre d&apos;applications, taux de réussite (aucune règle d&apos;avertissement échouée) et retours. Sous-performante&#xa0;: appliquée ≥ {MIN_APPLIED} fois et réussite &lt; {0}, ou plus de pouces baissés que levés — les skills que l&apos;analyse nocturne propose de corriger. Les pires d&apos;abord.</translation>
    </message>
    <message>
        <source>Loading projects</source>
        <translation>Chargement des projets</translation>
    </message>
    <message>
        <source>All projects</source>
        <translation>Tous les projets</translation>
    </message>
    <message>
        <source>Loading quality</source>
        <translation>Chargement de la qualité</translation>
    </message>
    <message>
        <source>{n} skill(s) used · {bad} underperforming</source>
        <translation>{n} skill(s) utilisée(s) · {bad} sous-performante(s)</translation>
    </message>
    <message>
        <source>Success rate per day — {0}</source>
        <translation>Taux de réussite par jour — {0}</translation>
    </message>
</context>
<context>
    <name>QueueNotes</name>
    <message>
        <source>Assigned to</source>
        <translation>Assigné à</translation>
    </message>
    <message>
        <source>by {0} · {1} UTC</source>
        <translation>par {0} · {1} UTC</translation>
    </message>
    <message>
        <source>Comments ({0})</source>
        <translation>Commentaires ({0})</translation>
    </message>
    <message>
        <source>Comment (C)</source>
        <translation>Commenter (C)</translation>
    </message>
    <message>
        <source>Add a comment to the selected item (signed, shown in its history)</source>
        <translation>Ajouter un commentaire à l&apos;élément sélectionné (signé, affiché dans son historique)</translation>
    </message>
    <message>
        <source>Assign (G)</source>
        <translation>Assigner (G)</translation>
    </message>
    <message>
        <source>Assign the selected item(s) to an operator (empty name: unassign)</source>
        <translation>Assigner le ou les éléments sélectionnés à un opérateur (nom vide : désassigner)</translation>
    </message>
    <message>
        <source>Mine only (Ctrl+M)</source>
        <translation>Les miens seulement (Ctrl+M)</translation>
    </message>
    <message>
        <source>Show only the items assigned to you ({0})</source>
        <translation>N&apos;afficher que les éléments qui vous sont assignés ({0})</translation>
    </message>
    <message>
        <source>Comment on the selected item (Enter adds it)</source>
        <translation>Commenter l&apos;élément sélectionné (Entrée l&apos;ajoute)</translation>
    </message>
    <message>
        <source>Assign the selected item(s) to an operator (Enter; empty: unassign)</source>
        <translation>Assigner le ou les éléments sélectionnés à un opérateur (Entrée ; vide : désassigner)</translation>
    </message>
    <message>
        <source>Mine only: the items assigned to you</source>
        <translation>Les miens seulement : les éléments qui vous sont assignés</translation>
    </message>
    <message>
        <source>Select an item first</source>
        <translation>Sélectionnez d&apos;abord un élément</translation>
    </message>
    <message>
        <source>Comment on {0} #{1} (Enter to add, Esc to cancel)</source>
        <translation>Commentaire sur {0} #{1} (Entrée pour ajouter, Échap pour annuler)</translation>
    </message>
    <message>
        <source>Comment</source>
        <translation>Commenter</translation>
    </message>
    <message>
        <source>Comment added to {0} #{1}</source>
        <translation>Commentaire ajouté à {0} #{1}</translation>
    </message>
    <message>
        <source>A comment needs some text</source>
        <translation>Un commentaire doit contenir du texte</translation>
    </message>
    <message>
        <source>{0} #{1}</source>
        <translation>{0} #{1}</translation>
    </message>
    <message>
        <source>the {0} selected</source>
        <translation>les {0} sélectionnés</translation>
    </message>
    <message>
        <source>Assigned {0} to {1}</source>
        <translation>{0} assigné à {1}</translation>
    </message>
    <message>
        <source>Unassigned {0}</source>
        <translation>{0} désassigné</translation>
    </message>
    <message>
        <source>Assign {0} to (an operator&apos;s name; empty: unassign; Enter)</source>
        <translation>Assigner {0} à (nom d&apos;un opérateur ; vide : désassigner ; Entrée)</translation>
    </message>
    <message>
        <source>Assign</source>
        <translation>Assigner</translation>
    </message>
</context>
<context>
    <name>ReasonBar</name>
    <message>
        <source>This decision needs a reason</source>
        <translation>Cette décision demande une raison</translation>
    </message>
    <message>
        <source>Why is it rejected? (Enter to reject, Esc to cancel)</source>
        <translation>Pourquoi est-ce rejeté&#xa0;? (Entrée pour rejeter, Échap pour annuler)</translation>
    </message>
    <message>
        <source>Reject</source>
        <translation>Rejeter</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
    <message>
        <source>Reason:</source>
        <translation>Raison&#xa0;:</translation>
    </message>
    <message>
        <source>{reason_missing}: type it, then Enter.</source>
        <translation>{reason_missing}&#xa0;: saisissez-la, puis Entrée.</translation>
    </message>
</context>
<context>
    <name>ReasonDialog</name>
    <message>
        <source>What was wrong?</source>
        <translation>Qu&apos;est-ce qui n&apos;allait pas&#xa0;?</translation>
    </message>
    <message>
        <source>Optional: what the model should do instead</source>
        <translation>Facultatif&#xa0;: ce que le modèle devrait faire à la place</translation>
    </message>
    <message>
        <source>The answer gets negative feedback and a learning is saved.</source>
        <translation>La réponse reçoit un retour négatif et un apprentissage est enregistré.</translation>
    </message>
</context>
<context>
    <name>ResultsModel</name>
    <message>
        <source>Score</source>
        <translation>Score</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>Titre</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>Id</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>Détails</translation>
    </message>
</context>
<context>
    <name>ResultsTableModel</name>
    <message>
        <source>Result</source>
        <translation>Résultat</translation>
    </message>
    <message>
        <source>Rule</source>
        <translation>Règle</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Type</translation>
    </message>
    <message>
        <source>Severity</source>
        <translation>Gravité</translation>
    </message>
</context>
<context>
    <name>ReviewActions</name>
    <message>
        <source>Approve {n} open item(s) of the current filter?</source>
        <translation>Approuver {n} élément(s) ouvert(s) du filtre actuel&#xa0;?</translation>
    </message>
</context>
<context>
    <name>ReviewQueue</name>
    <message>
        <source>No {noun} to review.</source>
        <translation>Aucun élément à revoir ({noun}).</translation>
    </message>
    <message>
        <source>Approve every open item of the current filter (asks first)</source>
        <translation>Approuver chaque élément ouvert du filtre actuel (demande d&apos;abord)</translation>
    </message>
    <message>
        <source>Why is it rejected? (Enter to reject, Esc to cancel)</source>
        <translation>Pourquoi est-ce rejeté&#xa0;? (Entrée pour rejeter, Échap pour annuler)</translation>
    </message>
    <message>
        <source>Reject</source>
        <translation>Rejeter</translation>
    </message>
    <message>
        <source>Approve the selected {noun}</source>
        <translation>Approuver l&apos;élément sélectionné ({noun})</translation>
    </message>
    <message>
        <source>Reject: type the reason, Enter to confirm, Esc to cancel</source>
        <translation>Rejeter&#xa0;: saisissez la raison, Entrée pour confirmer, Échap pour annuler</translation>
    </message>
    <message>
        <source>Edit the selected {noun}</source>
        <translation>Modifier l&apos;élément sélectionné ({noun})</translation>
    </message>
    <message>
        <source>Undo the last decision (the item comes back, selected)</source>
        <translation>Annuler la dernière décision (l&apos;élément revient, sélectionné)</translation>
    </message>
    <message>
        <source>History: this session&apos;s decisions; pick one to undo it</source>
        <translation>Historique : les décisions de cette session ; choisissez-en une pour l&apos;annuler</translation>
    </message>
    <message>
        <source>Next {noun} (also ↓)</source>
        <translation>Élément suivant ({noun}) (aussi ↓)</translation>
    </message>
    <message>
        <source>Previous {noun} (also ↑)</source>
        <translation>Élément précédent ({noun}) (aussi ↑)</translation>
    </message>
    <message>
        <source>Show or hide this cheat-sheet (F1: every shortcut of the app)</source>
        <translation>Afficher ou masquer cet aide-mémoire (F1&#xa0;: tous les raccourcis de l&apos;application)</translation>
    </message>
    <message>
        <source>Cancel the reason or the editor, hide the cheat-sheet</source>
        <translation>Annuler la raison ou l&apos;éditeur, masquer l&apos;aide-mémoire</translation>
    </message>
    <message>
        <source>Cancelling the job on this {noun}…</source>
        <translation>Annulation de la tâche sur cet élément ({noun})…</translation>
    </message>
    <message>
        <source>None of the {0} selected is waiting for a decision.</source>
        <translation>Aucun des {0} sélectionnés n&apos;attend de décision.</translation>
    </message>
    <message>
        <source>Why are the {0} selected rejected? One reason for all (Enter to reject, Esc to cancel)</source>
        <translation>Pourquoi rejeter les {0} sélectionnés ? Une raison pour tous (Entrée pour rejeter, Échap pour annuler)</translation>
    </message>
    <message>
        <source>Reject {0}</source>
        <translation>Rejeter {0}</translation>
    </message>
    <message>
        <source>A rejection needs a reason</source>
        <translation>Un rejet demande une raison</translation>
    </message>
    <message>
        <source>No open {noun} in this filter.</source>
        <translation>Aucun élément ouvert ({noun}) dans ce filtre.</translation>
    </message>
    <message>
        <source>Approve all</source>
        <translation>Tout approuver</translation>
    </message>
    <message>
        <source>Nothing to undo.</source>
        <translation>Rien à annuler.</translation>
    </message>
    <message>
        <source>No decision yet in this session: nothing to undo.</source>
        <translation>Aucune décision dans cette session : rien à annuler.</translation>
    </message>
    <message>
        <source>Approving: {noun}</source>
        <translation>Approbation&#xa0;: {noun}</translation>
    </message>
    <message>
        <source>Rejecting: {noun}</source>
        <translation>Rejet&#xa0;: {noun}</translation>
    </message>
    <message>
        <source>Approving in bulk: {noun}</source>
        <translation>Approbation groupée&#xa0;: {noun}</translation>
    </message>
    <message>
        <source>Undoing: {noun}</source>
        <translation>Annulation&#xa0;: {noun}</translation>
    </message>
</context>
<context>
    <name>RouteTableModel</name>
    <message>
        <source>Skill</source>
        <translation>Skill</translation>
    </message>
    <message>
        <source>Score</source>
        <translation>Score</translation>
    </message>
    <message>
        <source>Matched triggers (×2)</source>
        <translation>Déclencheurs reconnus (×2)</translation>
    </message>
    <message>
        <source>Matched keywords (×1)</source>
        <translation>Mots-clés reconnus (×1)</translation>
    </message>
</context>
<context>
    <name>RouterPanel</name>
    <message>
        <source>Router</source>
        <translation>Routeur</translation>
    </message>
    <message>
        <source>Which skills would a message call for, and why? Advisory only: the router never hides a skill.</source>
        <translation>Quelles skills un message appellerait-il, et pourquoi&#xa0;? Simple conseil&#xa0;: le routeur ne masque jamais une skill.</translation>
    </message>
    <message>
        <source>Score = 2 × triggers matched + 1 × keywords matched. In a library where some skills carry no router words, both kinds are ranked on one calibrated scale (route --json shows the parts).</source>
        <translation>Score = 2 × déclencheurs reconnus + 1 × mots-clés reconnus. Dans une bibliothèque où certaines skills n&apos;ont pas de mots de routage, les deux sortes sont classées sur une même échelle calibrée (route --json montre le détail).</translation>
    </message>
    <message>
        <source>Type or paste a message to an agent, e.g. “review this PR and write tests”</source>
        <translation>Saisissez ou collez un message à un agent, p. ex. «&#xa0;relis cette PR et écris des tests&#xa0;»</translation>
    </message>
    <message>
        <source>top </source>
        <translation>top </translation>
    </message>
    <message>
        <source>Project:</source>
        <translation>Projet&#xa0;:</translation>
    </message>
    <message>
        <source>Show:</source>
        <translation>Afficher&#xa0;:</translation>
    </message>
    <message>
        <source>Matched words are highlighted here.</source>
        <translation>Les mots reconnus sont surlignés ici.</translation>
    </message>
    <message>
        <source>&lt;span style=&quot;background:{0}&quot;&gt;&amp;nbsp;trigger&amp;nbsp;&lt;/span&gt;&amp;nbsp;&amp;nbsp;&lt;span style=&quot;background:{1}&quot;&gt;&amp;nbsp;keyword&amp;nbsp;&lt;/span&gt;</source>
        <translation>&lt;span style=&quot;background:{0}&quot;&gt;&amp;nbsp;déclencheur&amp;nbsp;&lt;/span&gt;&amp;nbsp;&amp;nbsp;&lt;span style=&quot;background:{1}&quot;&gt;&amp;nbsp;mot-clé&amp;nbsp;&lt;/span&gt;</translation>
    </message>
    <message>
        <source>The SKILLS_HINT block appears here when at least one skill scores.</source>
        <translation>Le bloc SKILLS_HINT s&apos;affiche ici dès qu&apos;au moins une skill obtient un score.</translation>
    </message>
    <message>
        <source>Copy hint</source>
        <translation>Copier le bloc</translation>
    </message>
    <message>
        <source>Matched words in the message</source>
        <translation>Mots reconnus dans le message</translation>
    </message>
    <message>
        <source>Ranked skills</source>
        <translation>Skills classées</translation>
    </message>
    <message>
        <source>Hint block injected into the prompt</source>
        <translation>Bloc injecté dans le prompt</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>Message</translation>
    </message>
    <message>
        <source>Route a message</source>
        <translation>Router un message</translation>
    </message>
    <message>
        <source>Trigger evals</source>
        <translation>Évals de déclenchement</translation>
    </message>
    <message>
        <source>Run trigger evals</source>
        <translation>Lancer les évals de déclenchement</translation>
    </message>
    <message>
        <source>Route every skill&apos;s trigger cases over the whole library (the project chosen in the other tab) and score each skill: does it fire on its cases, and only on them?</source>
        <translation>Router les cas de déclenchement de chaque skill sur toute la bibliothèque (le projet choisi dans l&apos;autre onglet) et noter chaque skill&#xa0;: se déclenche-t-elle sur ses cas, et seulement sur eux&#xa0;?</translation>
    </message>
    <message>
        <source>Optimise selected</source>
        <translation>Optimiser la sélection</translation>
    </message>
    <message>
        <source>Ask the model for description and router-word edits of the selected skill, scored on its trigger cases (a held-out part kept apart); the best one that lowers nothing is queued as a proposal in Proposals</source>
        <translation>Demander au modèle des modifications de la description et des mots de routage de la skill sélectionnée, notées sur ses cas de déclenchement (une partie mise de côté)&#xa0;; la meilleure qui ne fait rien baisser est mise en file comme proposition dans Propositions</translation>
    </message>
    <message>
        <source>No trigger evals run yet. A skill&apos;s trigger cases live in {0} in its folder ([{{&quot;query&quot;: &quot;...&quot;, &quot;should_trigger&quot;: true}}, ...], skill-creator&apos;s shape); `lorekeeper skills suggest NAME --triggers` writes them from its description and history.</source>
        <translation>Aucune éval de déclenchement lancée. Les cas de déclenchement d&apos;une skill sont dans {0} dans son dossier ([{{&quot;query&quot;: &quot;...&quot;, &quot;should_trigger&quot;: true}}, ...], la forme de skill-creator)&#xa0;; `lorekeeper skills suggest NAME --triggers` les écrit à partir de sa description et de son historique.</translation>
    </message>
    <message>
        <source>Select a skill: its confusions and collisions appear here.</source>
        <translation>Sélectionnez une skill&#xa0;: ses confusions et collisions s&apos;affichent ici.</translation>
    </message>
    <message>
        <source>Routing the trigger cases…</source>
        <translation>Routage des cas de déclenchement…</translation>
    </message>
    <message>
        <source>Trigger evals failed: {exc}</source>
        <translation>Les évals de déclenchement ont échoué&#xa0;: {exc}</translation>
    </message>
    <message>
        <source>No skill has trigger cases ({0} in its folder).</source>
        <translation>Aucune skill n&apos;a de cas de déclenchement ({0} dans son dossier).</translation>
    </message>
    <message>
        <source>{n} skills, {cases} cases, {wrong} confusions (a skill fires when it is in the top {top})</source>
        <translation>{n} skills, {cases} cas, {wrong} confusions (une skill se déclenche quand elle est dans le top {top})</translation>
    </message>
    <message>
        <source>; {n} trigger file(s) do not parse: {message}</source>
        <translation>&#xa0;; {n} fichier(s) de déclenchement illisible(s)&#xa0;: {message}</translation>
    </message>
    <message>
        <source>precision {0}, recall {1}</source>
        <translation>précision {0}, rappel {1}</translation>
    </message>
    <message>
        <source>no candidate</source>
        <translation>aucun candidat</translation>
    </message>
    <message>
        <source>{name}: nothing proposed ({verdicts})</source>
        <translation>{name}&#xa0;: rien de proposé ({verdicts})</translation>
    </message>
    <message>
        <source>{name}: proposal #{id} queued; held-out {0} → {1}</source>
        <translation>{name}&#xa0;: proposition n° {id} en file&#xa0;; mis de côté {0} → {1}</translation>
    </message>
    <message>
        <source>Optimising {name} with the model…</source>
        <translation>Optimisation de {name} avec le modèle…</translation>
    </message>
    <message>
        <source>Optimise {name}</source>
        <translation>Optimiser {name}</translation>
    </message>
    <message>
        <source>Optimise {name} failed: {exc}</source>
        <translation>L&apos;optimisation de {name} a échoué&#xa0;: {exc}</translation>
    </message>
    <message>
        <source>&lt;b&gt;{0}&lt;/b&gt;: {tp} hit, {fn} missed, {fp} false, {tn} rightly left alone</source>
        <translation>&lt;b&gt;{0}&lt;/b&gt;&#xa0;: {tp} trouvé(s), {fn} manqué(s), {fp} faux, {tn} laissé(s) à juste titre</translation>
    </message>
    <message>
        <source>&lt;b&gt;Collisions&lt;/b&gt; (also fire on its should-trigger cases): </source>
        <translation>&lt;b&gt;Collisions&lt;/b&gt; (se déclenchent aussi sur ses cas should-trigger)&#xa0;: </translation>
    </message>
    <message>
        <source>&lt;li&gt;missed “{q}”: taken by {0}&lt;/li&gt;</source>
        <translation>&lt;li&gt;manqué «&#xa0;{q}&#xa0;»&#xa0;: pris par {0}&lt;/li&gt;</translation>
    </message>
    <message>
        <source>&lt;li&gt;fired on “{q}” (rank {rank}), should not&lt;/li&gt;</source>
        <translation>&lt;li&gt;déclenchée sur «&#xa0;{q}&#xa0;» (rang {rank}), ne devrait pas&lt;/li&gt;</translation>
    </message>
    <message>
        <source>Confusions</source>
        <translation>Confusions</translation>
    </message>
    <message>
        <source>No confusion: every case answered as expected.</source>
        <translation>Aucune confusion&#xa0;: chaque cas a répondu comme prévu.</translation>
    </message>
    <message>
        <source>Loading projects</source>
        <translation>Chargement des projets</translation>
    </message>
    <message>
        <source>Routing</source>
        <translation>Routage</translation>
    </message>
    <message>
        <source>Routing failed: {exc}</source>
        <translation>Le routage a échoué&#xa0;: {exc}</translation>
    </message>
    <message>
        <source>no skill hinted</source>
        <translation>aucune skill suggérée</translation>
    </message>
    <message numerus="yes">
        <source>%n skill(s) hinted</source>
        <translation>
            <numerusform>%n skill suggérée</numerusform>
            <numerusform>%n skills suggérées</numerusform>
        </translation>
    </message>
    <message>
        <source>SKILLS_HINT copied to the clipboard</source>
        <translation>SKILLS_HINT copié dans le presse-papiers</translation>
    </message>
</context>
<context>
    <name>RuleDialog</name>
    <message>
        <source>Edit rule</source>
        <translation>Modifier la règle</translation>
    </message>
    <message>
        <source>Add rule</source>
        <translation>Ajouter une règle</translation>
    </message>
    <message>
        <source>a short unique id, e.g. cr-006</source>
        <translation>un id court et unique, p. ex. cr-006</translation>
    </message>
    <message>
        <source>what the footnote shows, e.g. “Mentions rollback”</source>
        <translation>ce que la note affiche, p. ex. «&#xa0;Mentionne le rollback&#xa0;»</translation>
    </message>
    <message>
        <source>e.g. \brollback\b</source>
        <translation>p. ex. \brollback\b</translation>
    </message>
    <message>
        <source>i  ignore case</source>
        <translation>i  ignorer la casse</translation>
    </message>
    <message>
        <source>m  multi-line</source>
        <translation>m  multiligne</translation>
    </message>
    <message>
        <source>s  dot matches newline</source>
        <translation>s  le point reconnaît le saut de ligne</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Nom</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Type</translation>
    </message>
    <message>
        <source>Severity</source>
        <translation>Gravité</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Valeur</translation>
    </message>
    <message>
        <source>Pattern</source>
        <translation>Motif</translation>
    </message>
    <message>
        <source>Flags</source>
        <translation>Options</translation>
    </message>
    <message>
        <source>another rule already has this id</source>
        <translation>une autre règle a déjà cet id</translation>
    </message>
    <message>
        <source>missing &apos;value&apos;</source>
        <translation>&apos;value&apos; manquante</translation>
    </message>
</context>
<context>
    <name>RulesTab</name>
    <message>
        <source>No eval rules yet — add one with Add rule…</source>
        <translation>Aucune règle d&apos;éval pour l&apos;instant — ajoutez-en une avec Ajouter une règle…</translation>
    </message>
    <message>
        <source>Add rule…</source>
        <translation>Ajouter une règle…</translation>
    </message>
    <message>
        <source>Edit…</source>
        <translation>Modifier…</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Supprimer</translation>
    </message>
    <message>
        <source>Try a response: paste an answer here and each rule above shows pass or fail.</source>
        <translation>Essayez une réponse&#xa0;: collez une réponse ici et chaque règle ci-dessus indique réussite ou échec.</translation>
    </message>
    <message>
        <source>Rules</source>
        <translation>Règles</translation>
    </message>
    <message>
        <source>Try a response</source>
        <translation>Essayer une réponse</translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation>Modifications non enregistrées</translation>
    </message>
    <message>
        <source>The rule being edited has unsaved changes. Save them as a new version?</source>
        <translation>La règle en cours de modification a des changements non enregistrés. Les enregistrer comme nouvelle version&#xa0;?</translation>
    </message>
    <message>
        <source>Checking the response</source>
        <translation>Vérification de la réponse</translation>
    </message>
    <message>
        <source>Every rule passed — no footnote.</source>
        <translation>Toutes les règles sont respectées — aucune note.</translation>
    </message>
    <message>
        <source>No rules to check.</source>
        <translation>Aucune règle à vérifier.</translation>
    </message>
    <message>
        <source>added rule {id}</source>
        <translation>règle {id} ajoutée</translation>
    </message>
    <message>
        <source>edited rule {id}</source>
        <translation>règle {id} modifiée</translation>
    </message>
    <message>
        <source>Delete rule</source>
        <translation>Supprimer la règle</translation>
    </message>
    <message>
        <source>Delete rule {id} ({label})? A new version is saved.</source>
        <translation>Supprimer la règle {id} ({label})&#xa0;? Une nouvelle version est enregistrée.</translation>
    </message>
    <message>
        <source>deleted rule {id}</source>
        <translation>règle {id} supprimée</translation>
    </message>
    <message>
        <source>Saving rules of {name}</source>
        <translation>Enregistrement des règles de {name}</translation>
    </message>
</context>
<context>
    <name>RulesTableModel</name>
    <message>
        <source>Result</source>
        <translation>Résultat</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Nom</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Type</translation>
    </message>
    <message>
        <source>Severity</source>
        <translation>Gravité</translation>
    </message>
    <message>
        <source>Value / pattern</source>
        <translation>Valeur / motif</translation>
    </message>
</context>
<context>
    <name>RunsModel</name>
    <message>
        <source>Run</source>
        <translation>Lancer</translation>
    </message>
    <message>
        <source>Proposal</source>
        <translation>Proposition</translation>
    </message>
    <message>
        <source>Skill</source>
        <translation>Skill</translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation>Verdict</translation>
    </message>
    <message>
        <source>Improvement</source>
        <translation>Amélioration</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modèle</translation>
    </message>
    <message>
        <source>When</source>
        <translation>Quand</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>Démarrée</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>Mode</translation>
    </message>
    <message>
        <source>Stories</source>
        <translation>Stories</translation>
    </message>
    <message>
        <source>Store</source>
        <translation>Store</translation>
    </message>
    <message>
        <source>Emb.</source>
        <translation>Emb.</translation>
    </message>
    <message>
        <source>Cache</source>
        <translation>Cache</translation>
    </message>
    <message>
        <source>Sessions</source>
        <translation>Sessions</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Statut</translation>
    </message>
    <message>
        <source>By</source>
        <translation>Par</translation>
    </message>
    <message>
        <source>Loading purge runs</source>
        <translation>Chargement des purges</translation>
    </message>
    <message>
        <source>(nothing due)</source>
        <translation>(rien à échéance)</translation>
    </message>
</context>
<context>
    <name>SageControl</name>
    <message>
        <source>Sage</source>
        <translation>Sage</translation>
    </message>
    <message>
        <source>Ask the model for a better version of this skill: a proposal, benchmarked, waiting in Proposals (lorekeeper sage analyze --skill NAME)</source>
        <translation>Demander au modèle une meilleure version de cette skill&#xa0;: une proposition, avec benchmark, qui attend dans Propositions (lorekeeper sage analyze --skill NAME)</translation>
    </message>
    <message>
        <source>Open proposal</source>
        <translation>Ouvrir la proposition</translation>
    </message>
    <message>
        <source>Sage on {name}</source>
        <translation>Sage sur {name}</translation>
    </message>
    <message>
        <source>Sage is working on {name}{where} — edits wait until it finishes, or cancel it (Cancel in the status bar)</source>
        <translation>Sage travaille sur {name}{where} — les modifications attendent la fin, ou annulez-le (Annuler dans la barre d&apos;état)</translation>
    </message>
    <message>
        <source>Sage on {name} cancelled: nothing was proposed.</source>
        <translation>Sage sur {name} annulé&#xa0;: rien n&apos;a été proposé.</translation>
    </message>
    <message>
        <source>Sage on {name} cancelled; proposal #{pid} stays pending (not benchmarked).</source>
        <translation>Sage sur {name} annulé&#xa0;; la proposition n° {pid} reste en attente (sans benchmark).</translation>
    </message>
    <message>
        <source>Looking for the proposal</source>
        <translation>Recherche de la proposition</translation>
    </message>
    <message>
        <source>Sage on {name} failed — {code}: {error}</source>
        <translation>Sage sur {name} a échoué — {code}&#xa0;: {error}</translation>
    </message>
    <message>
        <source> · benchmark: {badge}</source>
        <translation> · benchmark&#xa0;: {badge}</translation>
    </message>
    <message>
        <source> · benchmark failed: {error}</source>
        <translation> · benchmark échoué&#xa0;: {error}</translation>
    </message>
    <message>
        <source>Sage proposed #{proposal} for {name}: {reason}{badge}</source>
        <translation>Sage a proposé n° {proposal} pour {name}&#xa0;: {reason}{badge}</translation>
    </message>
    <message>
        <source>no target</source>
        <translation>aucune cible</translation>
    </message>
    <message>
        <source>Sage proposes nothing for {name}: {why}.</source>
        <translation>Sage ne propose rien pour {name}&#xa0;: {why}.</translation>
    </message>
    <message>
        <source>Sage on {name}: done</source>
        <translation>Sage sur {name}&#xa0;: terminé</translation>
    </message>
    <message>
        <source>Open proposal #{pid}</source>
        <translation>Ouvrir la proposition n° {pid}</translation>
    </message>
</context>
<context>
    <name>SavedViews</name>
    <message>
        <source>Saved views: put a saved set of filters back</source>
        <translation>Vues enregistrées : rétablir un jeu de filtres enregistré</translation>
    </message>
    <message>
        <source>Save view…</source>
        <translation>Enregistrer la vue…</translation>
    </message>
    <message>
        <source>Save the current filters under a name (Ctrl+Shift+S)</source>
        <translation>Enregistrer les filtres actuels sous un nom (Ctrl+Maj+S)</translation>
    </message>
    <message>
        <source>Forget</source>
        <translation>Oublier</translation>
    </message>
    <message>
        <source>View name (Enter saves, Esc cancels)</source>
        <translation>Nom de la vue (Entrée enregistre, Échap annule)</translation>
    </message>
    <message>
        <source>Save the current filters as a named view</source>
        <translation>Enregistrer les filtres actuels comme vue nommée</translation>
    </message>
    <message>
        <source>Saved views ({0})</source>
        <translation>Vues enregistrées ({0})</translation>
    </message>
    <message>
        <source>Forget the chosen view</source>
        <translation>Oublier la vue choisie</translation>
    </message>
    <message>
        <source>Choose a saved view first</source>
        <translation>Choisissez d&apos;abord une vue enregistrée</translation>
    </message>
    <message>
        <source>A view needs a name (Enter saves, Esc cancels)</source>
        <translation>Une vue doit avoir un nom (Entrée enregistre, Échap annule)</translation>
    </message>
</context>
<context>
    <name>ScoreChart</name>
    <message>
        <source>combined /10</source>
        <translation>combiné /10</translation>
    </message>
</context>
<context>
    <name>ShortcutSheet</name>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>Raccourcis clavier</translation>
    </message>
    <message>
        <source>&lt;table&gt;</source>
        <translation>&lt;table&gt;</translation>
    </message>
    <message>
        <source>&lt;/table&gt;</source>
        <translation>&lt;/table&gt;</translation>
    </message>
</context>
<context>
    <name>SkillHealthModel</name>
    <message>
        <source>Skill</source>
        <translation>Skill</translation>
    </message>
    <message>
        <source>Scope</source>
        <translation>Portée</translation>
    </message>
    <message>
        <source>Applied</source>
        <translation>Appliquée</translation>
    </message>
    <message>
        <source>Success</source>
        <translation>Réussite</translation>
    </message>
    <message>
        <source>Up</source>
        <translation>Pour</translation>
    </message>
    <message>
        <source>Down</source>
        <translation>Contre</translation>
    </message>
    <message>
        <source>Health</source>
        <translation>Santé</translation>
    </message>
    <message>
        <source>Underperforming: </source>
        <translation>Sous-performante&#xa0;: </translation>
    </message>
    <message>
        <source>Too few uses (&lt; {MIN_APPLIED})</source>
        <translation>Trop peu d&apos;utilisations (&lt; {MIN_APPLIED})</translation>
    </message>
    <message>
        <source>Healthy</source>
        <translation>En bonne santé</translation>
    </message>
</context>
<context>
    <name>SkillTableModel</name>
    <message>
        <source>Skill</source>
        <translation>Skill</translation>
    </message>
    <message>
        <source>Ver.</source>
        <translation>Ver.</translation>
    </message>
    <message>
        <source>Rules</source>
        <translation>Règles</translation>
    </message>
    <message>
        <source>Triggers</source>
        <translation>Déclencheurs</translation>
    </message>
    <message>
        <source>fork for project {project}</source>
        <translation>fork pour le projet {project}</translation>
    </message>
    <message>
        <source>
Forked by at least one project.</source>
        <translation>
Forkée par au moins un projet.</translation>
    </message>
    <message>
        <source>{name} ({scope}), v{version}, {rules_count} rules
{description}
Triggers: {0}
Keywords: {1}{forked}</source>
        <translation>{name} ({scope}), v{version}, {rules_count} règles
{description}
Déclencheurs&#xa0;: {0}
Mots-clés&#xa0;: {1}{forked}</translation>
    </message>
</context>
<context>
    <name>SkillsPanel</name>
    <message>
        <source>Search name, description, triggers…  (Ctrl+F)</source>
        <translation>Chercher nom, description, déclencheurs…  (Ctrl+F)</translation>
    </message>
    <message>
        <source>All skills, global skills only, or what one project sees (its forks replace globals)</source>
        <translation>Toutes les skills, les skills globales seulement, ou ce qu&apos;un projet voit (ses forks remplacent les globales)</translation>
    </message>
    <message>
        <source>Loading the library…</source>
        <translation>Chargement de la bibliothèque…</translation>
    </message>
    <message>
        <source>Scope:</source>
        <translation>Portée&#xa0;:</translation>
    </message>
    <message>
        <source>Content</source>
        <translation>Contenu</translation>
    </message>
    <message>
        <source>Evals</source>
        <translation>Évals</translation>
    </message>
    <message>
        <source>Versions</source>
        <translation>Versions</translation>
    </message>
    <message>
        <source>Select a skill on the left to see its content, rules and history.</source>
        <translation>Sélectionnez une skill à gauche pour voir son contenu, ses règles et son historique.</translation>
    </message>
    <message>
        <source>Skills</source>
        <translation>Skills</translation>
    </message>
    <message>
        <source>Every change is a new version. Global skills serve every project; a project fork ({FORK_MARK}) overrides a skill&apos;s content and rules for that project.</source>
        <translation>Chaque changement est une nouvelle version. Les skills globales servent tous les projets&#xa0;; un fork de projet ({FORK_MARK}) remplace le contenu et les règles d&apos;une skill pour ce projet.</translation>
    </message>
    <message>
        <source>Library</source>
        <translation>Bibliothèque</translation>
    </message>
    <message>
        <source>Discover</source>
        <translation>Découvrir</translation>
    </message>
    <message>
        <source>Loading projects</source>
        <translation>Chargement des projets</translation>
    </message>
    <message>
        <source>All skills</source>
        <translation>Toutes les skills</translation>
    </message>
    <message>
        <source>Global only</source>
        <translation>Globales seulement</translation>
    </message>
    <message>
        <source>Project: {p}</source>
        <translation>Projet&#xa0;: {p}</translation>
    </message>
    <message>
        <source>Loading skills</source>
        <translation>Chargement des skills</translation>
    </message>
    <message numerus="yes">
        <source>%n skill(s)</source>
        <translation>
            <numerusform>%n skill</numerusform>
            <numerusform>%n skills</numerusform>
        </translation>
    </message>
    <message>
        <source>No skill matches “{search}”. Search looks at names, descriptions, triggers and keywords.</source>
        <translation>Aucune skill ne correspond à «&#xa0;{search}&#xa0;». La recherche porte sur les noms, descriptions, déclencheurs et mots-clés.</translation>
    </message>
    <message>
        <source>The library is empty — import a skill folder or a zip with Import…</source>
        <translation>La bibliothèque est vide — importez un dossier de skill ou un zip avec Importer…</translation>
    </message>
    <message>
        <source>Loading {name}</source>
        <translation>Chargement de {name}</translation>
    </message>
    <message>
        <source>{FORK_MARK} fork · project {project}</source>
        <translation>{FORK_MARK} fork · projet {project}</translation>
    </message>
    <message>
        <source>v{version} · {rules_count} rules · triggers: {0} · keywords: {1}</source>
        <translation>v{version} · {rules_count} règles · déclencheurs&#xa0;: {0} · mots-clés&#xa0;: {1}</translation>
    </message>
</context>
<context>
    <name>StartPanel</name>
    <message numerus="yes">
        <source>%n skill proposal(s) wait for a decision — approve, edit or reject</source>
        <translation>
            <numerusform>%n proposition de skill attend une décision — approuver, modifier ou rejeter</numerusform>
            <numerusform>%n propositions de skill attendent une décision — approuver, modifier ou rejeter</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n conflict(s) between facts to arbitrate</source>
        <translation>
            <numerusform>%n conflit entre faits à arbitrer</numerusform>
            <numerusform>%n conflits entre faits à arbitrer</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n candidate fact(s) to review</source>
        <translation>
            <numerusform>%n fait candidat à relire</numerusform>
            <numerusform>%n faits candidats à relire</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n stor(ies) due for the retention purge</source>
        <translation>
            <numerusform>%n story à purger au titre de la rétention</numerusform>
            <numerusform>%n stories à purger au titre de la rétention</numerusform>
        </translation>
    </message>
    <message>
        <source>Retention: could not be read (open Purge runs)</source>
        <translation>Rétention : illisible (ouvrez Purges)</translation>
    </message>
    <message>
        <source>Audit key: {0} — ok</source>
        <translation>Clé d&apos;audit : {0} — ok</translation>
    </message>
    <message>
        <source>Audit key: {0} — fix it</source>
        <translation>Clé d&apos;audit : {0} — à corriger</translation>
    </message>
    <message>
        <source>Go there (key {0})</source>
        <translation>Y aller (touche {0})</translation>
    </message>
    <message>
        <source>Start: go to line {0}</source>
        <translation>Accueil : aller à la ligne {0}</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>Accueil</translation>
    </message>
    <message>
        <source>What waits for you in this workspace. Press the key of a line (or click it) to go there; Ctrl+1 comes back here, F1 lists every shortcut.</source>
        <translation>Ce qui vous attend dans cet espace de travail. Appuyez sur la touche d&apos;une ligne (ou cliquez dessus) pour y aller ; Ctrl+1 revient ici, F1 liste tous les raccourcis.</translation>
    </message>
</context>
<context>
    <name>TokensChart</name>
    <message>
        <source>tokens</source>
        <translation>jetons</translation>
    </message>
    <message>
        <source>original</source>
        <translation>original</translation>
    </message>
    <message>
        <source>sent: {mode}</source>
        <translation>envoyé&#xa0;: {mode}</translation>
    </message>
</context>
<context>
    <name>TriggerTableModel</name>
    <message>
        <source>Skill</source>
        <translation>Skill</translation>
    </message>
    <message>
        <source>Cases</source>
        <translation>Cas</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>Précision</translation>
    </message>
    <message>
        <source>Recall</source>
        <translation>Rappel</translation>
    </message>
    <message>
        <source>Collisions (other skills firing on its cases)</source>
        <translation>Collisions (autres skills qui se déclenchent sur ses cas)</translation>
    </message>
</context>
<context>
    <name>VersionTableModel</name>
    <message>
        <source>Version</source>
        <translation>Version</translation>
    </message>
    <message>
        <source>Saved</source>
        <translation>Enregistrée</translation>
    </message>
    <message>
        <source>Author</source>
        <translation>Auteur</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>Message</translation>
    </message>
    <message>
        <source>restores v{0} · no net change since v{0}</source>
        <translation>restaure v{0} · aucun changement net depuis v{0}</translation>
    </message>
</context>
<context>
    <name>VersionsTab</name>
    <message>
        <source>Restore selected version…</source>
        <translation>Restaurer la version sélectionnée…</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>Comparer</translation>
    </message>
    <message>
        <source>File</source>
        <translation>Fichier</translation>
    </message>
    <message>
        <source>History (newest first)</source>
        <translation>Historique (plus récent d&apos;abord)</translation>
    </message>
    <message>
        <source> (current)</source>
        <translation> (actuelle)</translation>
    </message>
    <message>
        <source>Restore v{version}…</source>
        <translation>Restaurer la v{version}…</translation>
    </message>
    <message>
        <source>SKILL.md + rules</source>
        <translation>SKILL.md + règles</translation>
    </message>
    <message>
        <source>Only one version: nothing to compare yet.</source>
        <translation>Une seule version&#xa0;: rien à comparer pour l&apos;instant.</translation>
    </message>
    <message>
        <source>Same version on both sides.</source>
        <translation>Même version des deux côtés.</translation>
    </message>
    <message>
        <source>No difference.</source>
        <translation>Aucune différence.</translation>
    </message>
    <message>
        <source>No net change: v{0} restores v{1}.</source>
        <translation>Aucun changement net : v{0} restaure v{1}.</translation>
    </message>
    <message>
        <source>computing diff…</source>
        <translation>calcul du diff…</translation>
    </message>
    <message>
        <source> (restores v{0})</source>
        <translation> (restaure v{0})</translation>
    </message>
    <message>
        <source>{path}: no difference.</source>
        <translation>{path}&#xa0;: aucune différence.</translation>
    </message>
    <message>
        <source>Loading {path}</source>
        <translation>Chargement de {path}</translation>
    </message>
    <message>
        <source>Restore version</source>
        <translation>Restaurer la version</translation>
    </message>
    <message>
        <source>Restore {name} v{version}? It becomes a new version; history is kept.</source>
        <translation>Restaurer {name} v{version}&#xa0;? Elle devient une nouvelle version&#xa0;; l&apos;historique est conservé.</translation>
    </message>
    <message>
        <source>Restoring {name} v{version}</source>
        <translation>Restauration de {name} v{version}</translation>
    </message>
    <message>
        <source>Restored v{old} as v{version}.</source>
        <translation>v{old} restaurée en v{version}.</translation>
    </message>
    <message>
        <source>Restored {name} v{old} as v{version}</source>
        <translation>{name} v{old} restaurée en v{version}</translation>
    </message>
</context>
<context>
    <name>_Launcher</name>
    <message>
        <source>Opening the workspace</source>
        <translation>Ouverture de l&apos;espace de travail</translation>
    </message>
</context>
<context>
    <name>app</name>
    <message>
        <source>Create the workspace with `lorekeeper init DIR` (add --demo for sample data), or open another one with `lorekeeper --workspace DIR`.</source>
        <translation>Créez l&apos;espace de travail avec `lorekeeper init DIR` (ajoutez --demo pour des données d&apos;exemple), ou ouvrez-en un autre avec `lorekeeper --workspace DIR`.</translation>
    </message>
    <message>
        <source>Check [store] url in lorekeeper.toml, that the database file is readable, and that no other program holds it locked.</source>
        <translation>Vérifiez l&apos;url de [store] dans lorekeeper.toml, que le fichier de base de données est lisible et qu&apos;aucun autre programme ne le verrouille.</translation>
    </message>
    <message>
        <source>Fix the file named above (lorekeeper.toml is TOML), then retry.</source>
        <translation>Corrigez le fichier nommé ci-dessus (lorekeeper.toml est du TOML), puis réessayez.</translation>
    </message>
    <message>
        <source>Opening was stopped before it finished. Retry opens the workspace again.</source>
        <translation>L&apos;ouverture a été interrompue avant la fin. Réessayer rouvre l&apos;espace de travail.</translation>
    </message>
    <message>
        <source>Provision the audit key (`lorekeeper audit init-key`) or check the keyring/Vault settings in [audit], then retry.</source>
        <translation>Provisionnez la clé d&apos;audit (`lorekeeper audit init-key`) ou vérifiez les réglages trousseau/Vault dans [audit], puis réessayez.</translation>
    </message>
    <message>
        <source>Restore the newest backup (the button below, or the command above): the damaged file is renamed aside, never overwritten, and the workspace opens on the restored copy.</source>
        <translation>Restaurez la sauvegarde la plus récente (le bouton ci-dessous, ou la commande ci-dessus)&#xa0;: le fichier endommagé est renommé à côté, jamais écrasé, et l&apos;espace de travail s&apos;ouvre sur la copie restaurée.</translation>
    </message>
    <message>
        <source>Another process is restoring this workspace: retry in a moment.</source>
        <translation>Un autre processus restaure cet espace de travail&#xa0;: réessayez dans un instant.</translation>
    </message>
    <message>
        <source>There is no backup to restore. Quit, salvage the damaged file with sqlite3&apos;s .recover (the command above), restore the result with `lorekeeper restore`, then retry.</source>
        <translation>Il n&apos;y a aucune sauvegarde à restaurer. Quittez, récupérez le fichier endommagé avec le .recover de sqlite3 (la commande ci-dessus), restaurez le résultat avec `lorekeeper restore`, puis réessayez.</translation>
    </message>
    <message>
        <source>Opening the workspace (configuration, store, migrations)…</source>
        <translation>Ouverture de l&apos;espace de travail (configuration, store, migrations)…</translation>
    </message>
    <message>
        <source>Loading the audit key…</source>
        <translation>Chargement de la clé d&apos;audit…</translation>
    </message>
    <message>
        <source>Building the window…</source>
        <translation>Construction de la fenêtre…</translation>
    </message>
</context>
<context>
    <name>ask</name>
    <message>
        <source>Global (no project)</source>
        <translation>Global (aucun projet)</translation>
    </message>
    <message>
        <source>Ask a question about this workspace&apos;s knowledge: skills, learnings, facts and the documents under sources/ (research notes too) and clarifications/. Answers cite the exact passages they come from.</source>
        <translation>Posez une question sur la connaissance de cet espace de travail&#xa0;: skills, apprentissages, faits et documents sous sources/ (notes de recherche comprises) et clarifications/. Les réponses citent les passages exacts dont elles viennent.</translation>
    </message>
    <message>
        <source>&lt;b&gt;[{n}]&lt;/b&gt; &lt;code&gt;{0}&lt;/code&gt; lines {start}–{end} &lt;span style=&apos;color:gray&apos;&gt;({1}, score {score:.2f})&lt;/span&gt;</source>
        <translation>&lt;b&gt;[{n}]&lt;/b&gt; &lt;code&gt;{0}&lt;/code&gt; lignes {start}–{end} &lt;span style=&apos;color:gray&apos;&gt;({1}, score {score:.2f})&lt;/span&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;{head}&lt;br&gt;&lt;span style=&apos;font-family:monospace&apos;&gt;{body}&lt;/span&gt;&lt;/p&gt;</source>
        <translation>&lt;p&gt;{head}&lt;br&gt;&lt;span style=&apos;font-family:monospace&apos;&gt;{body}&lt;/span&gt;&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>audit</name>
    <message>
        <source>Install or unlock an OS keyring (GNOME Keyring / Secret Service, KWallet, macOS Keychain), or switch to the Vault provider in Settings. Then press Retry.</source>
        <translation>Installez ou déverrouillez un trousseau du système (GNOME Keyring / Secret Service, KWallet, trousseau macOS), ou passez au fournisseur Vault dans les Réglages. Puis cliquez sur Réessayer.</translation>
    </message>
    <message>
        <source>Unseal Vault (`bao operator unseal` or `vault operator unseal`), then press Retry.</source>
        <translation>Descellez Vault (`bao operator unseal` ou `vault operator unseal`), puis cliquez sur Réessayer.</translation>
    </message>
    <message>
        <source>Start Vault or fix its address in Settings (VAULT_ADDR overrides it), then press Retry.</source>
        <translation>Démarrez Vault ou corrigez son adresse dans les Réglages (VAULT_ADDR la remplace), puis cliquez sur Réessayer.</translation>
    </message>
    <message>
        <source>Press Create the key (what `lorekeeper audit init-key` does: an operator action, Lorekeeper never creates a key silently); the app then continues. Or restore the key in the provider and press Retry.</source>
        <translation>Appuyez sur Créer la clé (ce que fait `lorekeeper audit init-key` : une action d&apos;opérateur, Lorekeeper ne crée jamais de clé en silence) ; l&apos;application continue ensuite. Ou restaurez la clé chez le fournisseur et appuyez sur Réessayer.</translation>
    </message>
    <message>
        <source>The stored key must be 64 hexadecimal characters (32 bytes). Restore the right value in the provider, then press Retry.</source>
        <translation>La clé stockée doit faire 64 caractères hexadécimaux (32 octets). Rétablissez la bonne valeur chez le fournisseur, puis cliquez sur Réessayer.</translation>
    </message>
    <message>
        <source>Check the Vault token or AppRole and its policy on the key&apos;s path (Settings), then press Retry.</source>
        <translation>Vérifiez le jeton Vault ou l&apos;AppRole et sa politique sur le chemin de la clé (Réglages), puis cliquez sur Réessayer.</translation>
    </message>
    <message>
        <source>Set VAULT_TOKEN before starting Lorekeeper, or store a token in the OS keyring (Settings), then press Retry.</source>
        <translation>Définissez VAULT_TOKEN avant de démarrer Lorekeeper, ou stockez un jeton dans le trousseau du système (Réglages), puis cliquez sur Réessayer.</translation>
    </message>
    <message>
        <source>Fix the [audit] table of lorekeeper.toml (Settings), then press Retry.</source>
        <translation>Corrigez la table [audit] de lorekeeper.toml (Réglages), puis cliquez sur Réessayer.</translation>
    </message>
    <message>
        <source>Lorekeeper fails closed: without its audit key it cannot sign what it decides, so it does nothing until the key loads. It never falls back to another provider.</source>
        <translation>Lorekeeper ferme par sécurité&#xa0;: sans sa clé d&apos;audit, il ne peut pas signer ce qu&apos;il décide, donc il ne fait rien tant que la clé n&apos;est pas chargée. Il ne se rabat jamais sur un autre fournisseur.</translation>
    </message>
    <message>
        <source>Key: {provider} v{key_version}</source>
        <translation>Clé&#xa0;: {provider} v{key_version}</translation>
    </message>
    <message>
        <source> (v{pending_version} from next launch)</source>
        <translation> (v{pending_version} au prochain lancement)</translation>
    </message>
    <message>
        <source>Key: {provider} — failed closed ({0})</source>
        <translation>Clé&#xa0;: {provider} — fermé par sécurité ({0})</translation>
    </message>
    <message>
        <source>Key: {provider} (not loaded)</source>
        <translation>Clé&#xa0;: {provider} (non chargée)</translation>
    </message>
    <message>
        <source> {0} more break(s) after it.</source>
        <translation> {0} autre(s) rupture(s) après elle.</translation>
    </message>
    <message>
        <source>The audit chain has a break: {0} — {message}.{more} Signed writes go on after it. Look into it (Verify chain lists every problem), then acknowledge it with a reason: a signed break_acknowledged event records who, when and why. A new break is reported again.</source>
        <translation>La chaîne d&apos;audit a une rupture&#xa0;: {0} — {message}.{more} Les écritures signées continuent après elle. Examinez-la (Vérifier la chaîne liste chaque problème), puis acquittez-la avec une raison&#xa0;: un événement signé break_acknowledged consigne qui, quand et pourquoi. Une nouvelle rupture sera signalée à son tour.</translation>
    </message>
</context>
<context>
    <name>benchmarks</name>
    <message>
        <source>How a benchmark decides: the current and the proposed content each answer the same scenarios (3 by default: yours first, then the model&apos;s) through the configured model. Each answer gets the skill&apos;s deterministic eval rules (share passed × 10) and an LLM judge&apos;s 1-10 score, asked twice with the two answers swapped and their labels hidden; a judge that changes its mind when the order is swapped counts as a tie. Combined = 60% evals + 40% judge. The verdict is PASSED when the new content wins more scenarios, FAILED when it wins fewer, TIE otherwise; improvement = (new − old) / old × 100.

Runs need a model: configure one in Playground → Model settings (anthropic, ollama or claude-cli).</source>
        <translation>Comment un benchmark décide&#xa0;: le contenu actuel et le contenu proposé répondent chacun aux mêmes scénarios (3 par défaut&#xa0;: les vôtres d&apos;abord, puis ceux du modèle) à travers le modèle configuré. Chaque réponse passe les règles d&apos;éval déterministes de la skill (part réussie × 10) et reçoit la note de 1 à 10 d&apos;un juge LLM, demandée deux fois en inversant les deux réponses, étiquettes masquées&#xa0;; un juge qui change d&apos;avis quand l&apos;ordre est inversé compte comme une égalité. Combiné = 60 % évals + 40 % juge. Le verdict est PASSED quand le nouveau contenu gagne plus de scénarios, FAILED quand il en gagne moins, TIE sinon&#xa0;; amélioration = (nouveau − ancien) / ancien × 100.

Les exécutions demandent un modèle&#xa0;: configurez-en un dans Bac à sable → Réglages du modèle (anthropic, ollama ou claude-cli).</translation>
    </message>
</context>
<context>
    <name>conflicts</name>
    <message>
        <source>Open</source>
        <translation>Ouverts</translation>
    </message>
    <message>
        <source>Resolved</source>
        <translation>Résolus</translation>
    </message>
    <message>
        <source>All</source>
        <translation>Tous</translation>
    </message>
    <message>
        <source>everywhere</source>
        <translation>partout</translation>
    </message>
    <message>
        <source>&lt;p style=&apos;font-size:12pt; font-weight:600&apos;&gt;{letter}. {0}&lt;/p&gt;</source>
        <translation>&lt;p style=&apos;font-size:12pt; font-weight:600&apos;&gt;{letter}. {0}&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;{0} · confidence {confidence:.2f} ({1}) · scope {scope} · {corroboration} document{2}&lt;/p&gt;</source>
        <translation>&lt;p&gt;{0} · confiance {confidence:.2f} ({1}) · portée {scope} · {corroboration} document{2}&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p style=&apos;margin-left:6px&apos;&gt;&lt;b&gt;{0}&lt;/b&gt;&lt;br&gt;&lt;i&gt;“{1}”&lt;/i&gt;&lt;/p&gt;</source>
        <translation>&lt;p style=&apos;margin-left:6px&apos;&gt;&lt;b&gt;{0}&lt;/b&gt;&lt;br&gt;&lt;i&gt;«&#xa0;{1}&#xa0;»&lt;/i&gt;&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p style=&apos;color:{0}&apos;&gt;&lt;code&gt;{1}&lt;/code&gt;&lt;/p&gt;</source>
        <translation>&lt;p style=&apos;color:{0}&apos;&gt;&lt;code&gt;{1}&lt;/code&gt;&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>diffview</name>
    <message>
        <source>computing diff…</source>
        <translation>calcul du diff…</translation>
    </message>
</context>
<context>
    <name>evals</name>
    <message>
        <source>All time</source>
        <translation>Toute la période</translation>
    </message>
    <message>
        <source>Last 24 hours</source>
        <translation>Dernières 24 heures</translation>
    </message>
    <message>
        <source>Last 7 days</source>
        <translation>7 derniers jours</translation>
    </message>
    <message>
        <source>Last 30 days</source>
        <translation>30 derniers jours</translation>
    </message>
    <message>
        <source>No eval runs yet — run one above, or use `lorekeeper eval` from a script.</source>
        <translation>Aucune exécution d&apos;éval pour l&apos;instant — lancez-en une ci-dessus, ou utilisez `lorekeeper eval` dans un script.</translation>
    </message>
    <message>
        <source>No eval run matches these filters. Widen the time range or clear the search.</source>
        <translation>Aucune exécution d&apos;éval ne correspond à ces filtres. Élargissez la période ou effacez la recherche.</translation>
    </message>
    <message>
        <source>Pick a skill, paste a response and press Run: each rule shows pass or fail here.</source>
        <translation>Choisissez une skill, collez une réponse et cliquez sur Lancer&#xa0;: chaque règle indique ici réussite ou échec.</translation>
    </message>
</context>
<context>
    <name>facts</name>
    <message>
        <source>Any confidence</source>
        <extracomment>(label, (min, max)) — the seed&apos;s confidence bands</extracomment>
        <translation>Toute confiance</translation>
    </message>
    <message>
        <source>0.9+ stated</source>
        <translation>0,9+ énoncé</translation>
    </message>
    <message>
        <source>0.6–0.89 deduced</source>
        <translation>0,6–0,89 déduit</translation>
    </message>
    <message>
        <source>below 0.6 fragile</source>
        <translation>sous 0,6 fragile</translation>
    </message>
    <message>
        <source>stated explicitly</source>
        <translation>énoncé explicitement</translation>
    </message>
    <message>
        <source>deduced from an example</source>
        <translation>déduit d&apos;un exemple</translation>
    </message>
    <message>
        <source>fragile inference</source>
        <translation>inférence fragile</translation>
    </message>
    <message>
        <source>Candidates</source>
        <translation>Candidats</translation>
    </message>
    <message>
        <source>Approved</source>
        <translation>Approuvés</translation>
    </message>
    <message>
        <source>Rejected</source>
        <translation>Rejetés</translation>
    </message>
    <message>
        <source>Conflicting</source>
        <translation>En conflit</translation>
    </message>
    <message>
        <source>All</source>
        <translation>Tous</translation>
    </message>
    <message>
        <source>everywhere (no scope)</source>
        <translation>partout (sans portée)</translation>
    </message>
    <message>
        <source>&lt;p style=&apos;font-size:13pt; font-weight:600&apos;&gt;{0}&lt;/p&gt;</source>
        <translation>&lt;p style=&apos;font-size:13pt; font-weight:600&apos;&gt;{0}&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;table cellspacing=&apos;0&apos; cellpadding=&apos;2&apos;&gt;</source>
        <translation>&lt;table cellspacing=&apos;0&apos; cellpadding=&apos;2&apos;&gt;</translation>
    </message>
    <message>
        <source>&lt;tr&gt;&lt;td&gt;&lt;b&gt;Type&lt;/b&gt;&lt;/td&gt;&lt;td&gt;{0} &lt;span style=&apos;color:{1}&apos;&gt;— {2} (weight {3:.2f})&lt;/span&gt;&lt;/td&gt;&lt;/tr&gt;</source>
        <translation>&lt;tr&gt;&lt;td&gt;&lt;b&gt;Type&lt;/b&gt;&lt;/td&gt;&lt;td&gt;{0} &lt;span style=&apos;color:{1}&apos;&gt;— {2} (poids {3:.2f})&lt;/span&gt;&lt;/td&gt;&lt;/tr&gt;</translation>
    </message>
    <message>
        <source>&lt;tr&gt;&lt;td&gt;&lt;b&gt;Confidence&lt;/b&gt;&lt;/td&gt;&lt;td&gt;{confidence:.2f} ({0}) · corroborated by {corroboration} document{1} · pack score {score:.3f}&lt;/td&gt;&lt;/tr&gt;</source>
        <translation>&lt;tr&gt;&lt;td&gt;&lt;b&gt;Confiance&lt;/b&gt;&lt;/td&gt;&lt;td&gt;{confidence:.2f} ({0}) · corroboré par {corroboration} document{1} · score de pack {score:.3f}&lt;/td&gt;&lt;/tr&gt;</translation>
    </message>
    <message>
        <source>Scope</source>
        <translation>Portée</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>Étiquettes</translation>
    </message>
    <message>
        <source>&lt;tr&gt;&lt;td&gt;&lt;b&gt;Status&lt;/b&gt;&lt;/td&gt;&lt;td&gt;&lt;span style=&apos;color:{0}; font-weight:600&apos;&gt;{1}&lt;/span&gt;</source>
        <translation>&lt;tr&gt;&lt;td&gt;&lt;b&gt;Statut&lt;/b&gt;&lt;/td&gt;&lt;td&gt;&lt;span style=&apos;color:{0}; font-weight:600&apos;&gt;{1}&lt;/span&gt;</translation>
    </message>
    <message>
        <source> by {0} · {1}</source>
        <translation> par {0} · {1}</translation>
    </message>
    <message>
        <source> · in conflict #{conflict} (Conflicts panel)</source>
        <translation> · en conflit n° {conflict} (panneau Conflits)</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>Id</translation>
    </message>
    <message>
        <source>&lt;p style=&apos;color:{0}&apos;&gt;⚑ {1}&lt;/p&gt;</source>
        <translation>&lt;p style=&apos;color:{0}&apos;&gt;⚑ {1}&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Provenance&lt;/b&gt; ({n}) — press &lt;b&gt;O&lt;/b&gt; to see the quote in its document&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;Provenance&lt;/b&gt; ({n}) — appuyez sur &lt;b&gt;O&lt;/b&gt; pour voir la citation dans son document&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p style=&apos;margin-left:8px&apos;&gt;{i}. &lt;b&gt;{0}&lt;/b&gt;&lt;br&gt;&lt;i&gt;“{1}”&lt;/i&gt;&lt;/p&gt;</source>
        <translation>&lt;p style=&apos;margin-left:8px&apos;&gt;{i}. &lt;b&gt;{0}&lt;/b&gt;&lt;br&gt;&lt;i&gt;«&#xa0;{1}&#xa0;»&lt;/i&gt;&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>i18n</name>
    <message>
        <source>Language of the app (applies at the next start)</source>
        <translation>Langue de l&apos;application (s&apos;applique au prochain démarrage)</translation>
    </message>
    <message>
        <source>Follow the system</source>
        <translation>Suivre le système</translation>
    </message>
    <message>
        <source>Language: {0} from the next start</source>
        <translation>Langue&#xa0;: {0} à partir du prochain démarrage</translation>
    </message>
    <message>
        <source> ({0} is set and wins)</source>
        <translation> ({0} est défini et l&apos;emporte)</translation>
    </message>
</context>
<context>
    <name>learnings</name>
    <message>
        <source>No learnings yet. Fix It and thumbs down in the Playground create them; Add or Import brings your own.</source>
        <translation>Aucun apprentissage pour l&apos;instant. Fix It et le pouce baissé dans le Bac à sable en créent&#xa0;; Ajouter ou Importer apporte les vôtres.</translation>
    </message>
    <message>
        <source>No learning matches these filters.</source>
        <translation>Aucun apprentissage ne correspond à ces filtres.</translation>
    </message>
</context>
<context>
    <name>ledger</name>
    <message>
        <source>fix the budget overrun when a pack downgrades files</source>
        <translation>corriger le dépassement de budget quand un pack rétrograde des fichiers</translation>
    </message>
    <message>
        <source>auto</source>
        <translation>auto</translation>
    </message>
    <message>
        <source>full</source>
        <translation>complet</translation>
    </message>
    <message>
        <source>map</source>
        <translation>carte</translation>
    </message>
    <message>
        <source>signatures</source>
        <translation>signatures</translation>
    </message>
    <message>
        <source>reference</source>
        <translation>référence</translation>
    </message>
    <message>
        <source>omitted</source>
        <translation>omis</translation>
    </message>
</context>
<context>
    <name>main_window</name>
    <message>
        <source>Show this list of keyboard shortcuts</source>
        <translation>Afficher cette liste de raccourcis clavier</translation>
    </message>
    <message>
        <source>Search in the current panel</source>
        <translation>Chercher dans le panneau actuel</translation>
    </message>
    <message>
        <source>Refresh the current panel</source>
        <translation>Actualiser le panneau actuel</translation>
    </message>
    <message>
        <source>Tab / Shift+Tab</source>
        <translation>Tab / Maj+Tab</translation>
    </message>
    <message>
        <source>Next / previous field (Tab leaves a table; the arrows move inside it)</source>
        <translation>Champ suivant / précédent (Tab quitte un tableau&#xa0;; les flèches s&apos;y déplacent)</translation>
    </message>
    <message>
        <source>Next tab inside a panel</source>
        <translation>Onglet suivant dans un panneau</translation>
    </message>
    <message>
        <source>Quit Lorekeeper</source>
        <translation>Quitter Lorekeeper</translation>
    </message>
</context>
<context>
    <name>memory</name>
    <message>
        <source>Problem / user need</source>
        <translation>Problème / besoin de l&apos;utilisateur</translation>
    </message>
    <message>
        <source>Success criteria</source>
        <translation>Critères de réussite</translation>
    </message>
    <message>
        <source>Known constraints</source>
        <translation>Contraintes connues</translation>
    </message>
    <message>
        <source>Priorities (must-have / nice-to-have)</source>
        <translation>Priorités (indispensable / souhaitable)</translation>
    </message>
</context>
<context>
    <name>panels</name>
    <message>
        <source>Start</source>
        <translation>Accueil</translation>
    </message>
    <message>
        <source>Skills</source>
        <translation>Skills</translation>
    </message>
    <message>
        <source>Evals</source>
        <translation>Évals</translation>
    </message>
    <message>
        <source>Router</source>
        <translation>Routeur</translation>
    </message>
    <message>
        <source>Playground</source>
        <translation>Bac à sable</translation>
    </message>
    <message>
        <source>Learnings</source>
        <translation>Apprentissages</translation>
    </message>
    <message>
        <source>Quality</source>
        <translation>Qualité</translation>
    </message>
    <message>
        <source>Proposals</source>
        <translation>Propositions</translation>
    </message>
    <message>
        <source>Benchmarks</source>
        <translation>Benchmarks</translation>
    </message>
    <message>
        <source>Facts review</source>
        <translation>Revue des faits</translation>
    </message>
    <message>
        <source>Conflicts</source>
        <translation>Conflits</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>Mémoire</translation>
    </message>
    <message>
        <source>Ask</source>
        <translation>Questions</translation>
    </message>
    <message>
        <source>Compression ledger</source>
        <translation>Compression</translation>
    </message>
    <message>
        <source>Purge runs</source>
        <translation>Purges</translation>
    </message>
    <message>
        <source>Audit</source>
        <translation>Audit</translation>
    </message>
</context>
<context>
    <name>playground</name>
    <message>
        <source>No project</source>
        <translation>Aucun projet</translation>
    </message>
    <message>
        <source>✂ Cut at max_tokens: the answer is incomplete (raise [llm] max_tokens in Settings)</source>
        <translation>✂ Coupée à max_tokens&#xa0;: la réponse est incomplète (augmentez [llm] max_tokens dans les Réglages)</translation>
    </message>
</context>
<context>
    <name>proposals</name>
    <message>
        <source>Pending</source>
        <translation>En attente</translation>
    </message>
    <message>
        <source>Approved</source>
        <translation>Approuvés</translation>
    </message>
    <message>
        <source>Rejected</source>
        <translation>Rejetés</translation>
    </message>
    <message>
        <source>All</source>
        <translation>Tous</translation>
    </message>
    <message>
        <source>fork of project {0}</source>
        <translation>fork du projet {0}</translation>
    </message>
    <message>
        <source>global skill</source>
        <translation>skill globale</translation>
    </message>
    <message>
        <source>&lt;p style=&apos;font-size:13pt; font-weight:600&apos;&gt;Improvement proposal #{id}&lt;/p&gt;</source>
        <translation>&lt;p style=&apos;font-size:13pt; font-weight:600&apos;&gt;Proposition d&apos;amélioration n° {id}&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;table cellspacing=&apos;0&apos; cellpadding=&apos;2&apos;&gt;</source>
        <translation>&lt;table cellspacing=&apos;0&apos; cellpadding=&apos;2&apos;&gt;</translation>
    </message>
    <message>
        <source>Project</source>
        <translation>Projet</translation>
    </message>
    <message>
        <source>&lt;tr&gt;&lt;td&gt;&lt;b&gt;Skill&lt;/b&gt;&lt;/td&gt;&lt;td&gt;{0} ({scope}, from v{base_version})&lt;/td&gt;&lt;/tr&gt;</source>
        <translation>&lt;tr&gt;&lt;td&gt;&lt;b&gt;Skill&lt;/b&gt;&lt;/td&gt;&lt;td&gt;{0} ({scope}, depuis la v{base_version})&lt;/td&gt;&lt;/tr&gt;</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Raison</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>Changement</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Source</translation>
    </message>
    <message>
        <source>&lt;tr&gt;&lt;td&gt;&lt;b&gt;Metrics&lt;/b&gt;&lt;/td&gt;&lt;td&gt;{0}: applied {applied_count}, success {rate}&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;&lt;b&gt;Feedback&lt;/b&gt;&lt;/td&gt;&lt;td&gt;{feedback_positive} up / {feedback_negative} down&lt;/td&gt;&lt;/tr&gt;</source>
        <translation>&lt;tr&gt;&lt;td&gt;&lt;b&gt;Métriques&lt;/b&gt;&lt;/td&gt;&lt;td&gt;{0}&#xa0;: appliquée {applied_count} fois, réussite {rate}&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;&lt;b&gt;Retours&lt;/b&gt;&lt;/td&gt;&lt;td&gt;{feedback_positive} pour / {feedback_negative} contre&lt;/td&gt;&lt;/tr&gt;</translation>
    </message>
    <message>
        <source>no project</source>
        <translation>aucun projet</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Failing rules:&lt;/b&gt; </source>
        <translation>&lt;p&gt;&lt;b&gt;Règles en échec&#xa0;:&lt;/b&gt; </translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Related learnings:&lt;/b&gt;&lt;br&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;Apprentissages liés&#xa0;:&lt;/b&gt;&lt;br&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Related learnings:&lt;/b&gt; none&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;Apprentissages liés&#xa0;:&lt;/b&gt; aucun&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;{0}&lt;/b&gt; by {1} · {when}</source>
        <translation>&lt;p&gt;&lt;b&gt;{0}&lt;/b&gt; par {1} · {when}</translation>
    </message>
    <message>
        <source> · now v{applied_version}</source>
        <translation> · désormais v{applied_version}</translation>
    </message>
</context>
<context>
    <name>purge</name>
    <message>
        <source>store rows</source>
        <translation>lignes du store</translation>
    </message>
    <message>
        <source>FAISS vectors</source>
        <translation>vecteurs FAISS</translation>
    </message>
    <message>
        <source>embedding rows (.npy)</source>
        <translation>lignes d&apos;embeddings (.npy)</translation>
    </message>
    <message>
        <source>index cache entries</source>
        <translation>entrées du cache d&apos;index</translation>
    </message>
    <message>
        <source>session-log events (signed tombstones)</source>
        <translation>événements du journal de session (tombstones signés)</translation>
    </message>
    <message>
        <source>clarification summary files</source>
        <translation>fichiers de résumé de clarification</translation>
    </message>
    <message>
        <source>No purge run yet. Type a story id above and press Purge to erase it from every artefact, or let the daily retention run erase the summaries past their retention date.</source>
        <translation>Aucune purge pour l&apos;instant. Saisissez un id de story ci-dessus et cliquez sur Purger pour l&apos;effacer de chaque artefact, ou laissez la rétention quotidienne effacer les résumés dont la date de rétention est passée.</translation>
    </message>
    <message>
        <source>Erase story {story} from every artefact? This cannot be undone.</source>
        <translation>Effacer la story {story} de chaque artefact&#xa0;? C&apos;est irréversible.</translation>
    </message>
    <message>
        <source>Then every artefact is verified and a signed clarification_purged event records the counts.</source>
        <translation>Ensuite chaque artefact est vérifié et un événement signé clarification_purged consigne les décomptes.</translation>
    </message>
</context>
<context>
    <name>quality</name>
    <message>
        <source>Last 7 days</source>
        <translation>7 derniers jours</translation>
    </message>
    <message>
        <source>Last 30 days</source>
        <translation>30 derniers jours</translation>
    </message>
    <message>
        <source>Last 90 days</source>
        <translation>90 derniers jours</translation>
    </message>
    <message>
        <source>All time</source>
        <translation>Toute la période</translation>
    </message>
    <message>
        <source>No quality events in this window. Every answer in the Playground (or `lorekeeper llm ask`) records the skills it was routed to, their eval outcome and your feedback.</source>
        <translation>Aucun événement de qualité sur cette période. Chaque réponse du Bac à sable (ou de `lorekeeper llm ask`) enregistre les skills vers lesquelles elle a été routée, le résultat de leurs évals et vos retours.</translation>
    </message>
</context>
<context>
    <name>router</name>
    <message>
        <source>Global (no project)</source>
        <translation>Global (aucun projet)</translation>
    </message>
    <message>
        <source>Type a message above: the skills it calls for appear here, ranked, with the words that matched.</source>
        <translation>Saisissez un message ci-dessus&#xa0;: les skills qu&apos;il appelle s&apos;affichent ici, classées, avec les mots reconnus.</translation>
    </message>
    <message>
        <source>No skill matches this message. The router only hints skills whose triggers or keywords appear as whole words — try the words an operator would use, e.g. “review”, “deploy”, “migration”.</source>
        <translation>Aucune skill ne correspond à ce message. Le routeur ne suggère que les skills dont les déclencheurs ou mots-clés apparaissent en mots entiers — essayez les mots qu&apos;un opérateur emploierait, p. ex. «&#xa0;review&#xa0;», «&#xa0;deploy&#xa0;», «&#xa0;migration&#xa0;».</translation>
    </message>
    <message>
        <source>&lt;span style=&quot;background:{bg}; font-weight:600&quot;&gt;{0}&lt;/span&gt;</source>
        <translation>&lt;span style=&quot;background:{bg}; font-weight:600&quot;&gt;{0}&lt;/span&gt;</translation>
    </message>
</context>
<context>
    <name>rule_dialog</name>
    <message>
        <source>A whole number (Unicode code points for lengths, inclusive).</source>
        <translation>Un nombre entier (points de code Unicode pour les longueurs, bornes incluses).</translation>
    </message>
    <message>
        <source>Several values separated by commas.</source>
        <translation>Plusieurs valeurs séparées par des virgules.</translation>
    </message>
    <message>
        <source>A Python regular expression, searched anywhere in the response.</source>
        <translation>Une expression régulière Python, cherchée n&apos;importe où dans la réponse.</translation>
    </message>
    <message>
        <source>This rule type needs no value.</source>
        <translation>Ce type de règle ne demande aucune valeur.</translation>
    </message>
    <message>
        <source>Literal text, case-sensitive unless the type starts with &apos;i&apos;.</source>
        <translation>Texte littéral, sensible à la casse sauf si le type commence par &apos;i&apos;.</translation>
    </message>
</context>
<context>
    <name>skill_tabs</name>
    <message>
        <source>

# ---- evals.json ----
</source>
        <translation>

# ---- evals.json ----
</translation>
    </message>
    <message>
        <source>(mode {mode:o})
</source>
        <translation>(mode {mode:o})
</translation>
    </message>
    <message>
        <source>binary file, {size} bytes, sha256 {0}
</source>
        <translation>fichier binaire, {size} octets, sha256 {0}
</translation>
    </message>
</context>
<context>
    <name>value</name>
    <message>
        <source>active</source>
        <translation>actif</translation>
    </message>
    <message>
        <source>archived</source>
        <translation>archivé</translation>
    </message>
    <message>
        <source>candidate</source>
        <translation>candidat</translation>
    </message>
    <message>
        <source>approved</source>
        <translation>approuvé</translation>
    </message>
    <message>
        <source>rejected</source>
        <translation>rejeté</translation>
    </message>
    <message>
        <source>conflicting</source>
        <translation>en conflit</translation>
    </message>
    <message>
        <source>pending</source>
        <translation>en attente</translation>
    </message>
    <message>
        <source>open</source>
        <translation>ouvert</translation>
    </message>
    <message>
        <source>resolved</source>
        <translation>résolu</translation>
    </message>
    <message>
        <source>passed</source>
        <translation>réussi</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>échoué</translation>
    </message>
    <message>
        <source>pass</source>
        <translation>réussi</translation>
    </message>
    <message>
        <source>fail</source>
        <translation>échec</translation>
    </message>
    <message>
        <source>fixit</source>
        <translation>fixit</translation>
    </message>
    <message>
        <source>negative</source>
        <translation>négatif</translation>
    </message>
    <message>
        <source>manual</source>
        <translation>manuel</translation>
    </message>
    <message>
        <source>import</source>
        <translation>import</translation>
    </message>
    <message>
        <source>template</source>
        <translation>template</translation>
    </message>
    <message>
        <source>suggest</source>
        <translation>suggestion</translation>
    </message>
    <message>
        <source>generator</source>
        <translation>générateur</translation>
    </message>
    <message>
        <source>optimiser</source>
        <translation>optimiseur</translation>
    </message>
    <message>
        <source>story</source>
        <translation>story</translation>
    </message>
    <message>
        <source>domain</source>
        <translation>domaine</translation>
    </message>
    <message>
        <source>global</source>
        <translation>global</translation>
    </message>
    <message>
        <source>kept</source>
        <translation>gardé</translation>
    </message>
    <message>
        <source>merged</source>
        <translation>fusionné</translation>
    </message>
</context>
<context>
    <name>views</name>
    <message>
        <source>Part of the view is no longer offered, left as it was: {0}</source>
        <translation>Une partie de la vue n&apos;est plus proposée, laissée telle quelle : {0}</translation>
    </message>
</context>
<context>
    <name>widgets</name>
    <message>
        <source>field &apos;{field}&apos;</source>
        <translation>champ &apos;{field}&apos;</translation>
    </message>
    <message>
        <source>rule {rule_id}</source>
        <translation>règle {rule_id}</translation>
    </message>
</context>
</TS>
