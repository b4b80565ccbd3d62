<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>AskPanel</name>
    <message numerus="yes">
        <source>%n passage(s)</source>
        <translation>
            <numerusform>%n passage</numerusform>
            <numerusform>%n passages</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>AuditPanel</name>
    <message numerus="yes">
        <source>%n event(s)</source>
        <translation>
            <numerusform>%n event</numerusform>
            <numerusform>%n events</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> in %n file(s)</source>
        <translation>
            <numerusform> in %n file</numerusform>
            <numerusform> in %n files</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>{n} of %Ln event(s)</source>
        <translation>
            <numerusform>{n} of %Ln event</numerusform>
            <numerusform>{n} of %Ln events</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>BenchmarksPanel</name>
    <message numerus="yes">
        <source>%n run(s)</source>
        <translation>
            <numerusform>%n run</numerusform>
            <numerusform>%n runs</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ConflictsPanel</name>
    <message numerus="yes">
        <source>%n conflict(s) open again: their facts are back in conflict</source>
        <translation>
            <numerusform>%n conflict open again: its facts are back in conflict</numerusform>
            <numerusform>%n conflicts open again: their facts are back in conflict</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>DiffCanvas</name>
    <message numerus="yes">
        <source>… %n unchanged line(s) (click to show)</source>
        <translation>
            <numerusform>… %n unchanged line (click to show)</numerusform>
            <numerusform>… %n unchanged lines (click to show)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>DiffView</name>
    <message numerus="yes">
        <source>%n change(s)</source>
        <translation>
            <numerusform>%n change</numerusform>
            <numerusform>%n changes</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>EvalsPanel</name>
    <message numerus="yes">
        <source>%Ln run(s)</source>
        <translation>
            <numerusform>%Ln run</numerusform>
            <numerusform>%Ln runs</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>FactsPanel</name>
    <message numerus="yes">
        <source>Approved %n fact(s): Ctrl+Z puts them back in the queue</source>
        <translation>
            <numerusform>Approved %n fact: Ctrl+Z puts them back in the queue</numerusform>
            <numerusform>Approved %n facts: Ctrl+Z puts them back in the queue</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Rejected %n fact(s): Ctrl+Z puts them back in the queue</source>
        <translation>
            <numerusform>Rejected %n fact: Ctrl+Z puts it back in the queue</numerusform>
            <numerusform>Rejected %n facts: Ctrl+Z puts them back in the queue</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Back in the queue: %n fact(s)</source>
        <translation>
            <numerusform>Back in the queue: %n fact</numerusform>
            <numerusform>Back in the queue: %n facts</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LearningsPanel</name>
    <message numerus="yes">
        <source>%Ln learning(s)</source>
        <translation>
            <numerusform>%Ln learning</numerusform>
            <numerusform>%Ln learnings</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>{verb} %n learning(s).</source>
        <translation>
            <numerusform>{verb} %n learning.</numerusform>
            <numerusform>{verb} %n learnings.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message numerus="yes">
        <source>%n job(s): {names}</source>
        <translation>
            <numerusform>%n job: {names}</numerusform>
            <numerusform>%n jobs: {names}</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>PlaygroundPanel</name>
    <message numerus="yes">
        <source>%Ln character(s)</source>
        <translation>
            <numerusform>%Ln character</numerusform>
            <numerusform>%Ln characters</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> · %n learning(s)</source>
        <translation>
            <numerusform> · %n learning</numerusform>
            <numerusform> · %n learnings</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>PurgePanel</name>
    <message numerus="yes">
        <source>The next daily run erases %n summary(-ies) (retention_until before {today}; a summary is kept on its last day).</source>
        <translation>
            <numerusform>The next daily run erases %n summary (retention_until before {today}; a summary is kept on its last day).</numerusform>
            <numerusform>The next daily run erases %n summaries (retention_until before {today}; a summary is kept on its last day).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln run(s)</source>
        <translation>
            <numerusform>%Ln run</numerusform>
            <numerusform>%Ln runs</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>RouterPanel</name>
    <message numerus="yes">
        <source>%n skill(s) hinted</source>
        <translation>
            <numerusform>%n skill hinted</numerusform>
            <numerusform>%n skills hinted</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>SkillsPanel</name>
    <message numerus="yes">
        <source>%n skill(s)</source>
        <translation>
            <numerusform>%n skill</numerusform>
            <numerusform>%n skills</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>StartPanel</name>
    <message numerus="yes">
        <source>%n skill proposal(s) wait for a decision — approve, edit or reject</source>
        <translation>
            <numerusform>%n skill proposal waits for a decision — approve, edit or reject</numerusform>
            <numerusform>%n skill proposals wait for a decision — approve, edit or reject</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n conflict(s) between facts to arbitrate</source>
        <translation>
            <numerusform>%n conflict between facts to arbitrate</numerusform>
            <numerusform>%n conflicts between facts to arbitrate</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n candidate fact(s) to review</source>
        <translation>
            <numerusform>%n candidate fact to review</numerusform>
            <numerusform>%n candidate facts to review</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n stor(ies) due for the retention purge</source>
        <translation>
            <numerusform>%n story due for the retention purge</numerusform>
            <numerusform>%n stories due for the retention purge</numerusform>
        </translation>
    </message>
</context>
</TS>
