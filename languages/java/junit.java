// The junit template's grader runs the tests' JUnit classes here (junit.json): VerdictGrader's
// main calls Main.main, which gives every class of the grader's jar (/dev/fd/5: the tests, the
// proxy of the code's class; ours and nested classes aside, which JUnit finds from their
// enclosing class) to JUnit Platform's launcher with its Jupiter and Vintage engines, as
// `junit-platform-console-standalone --scan-class-path` runs them. A failed test is a failed
// check (exit 1). The program's raise crosses as an exception the tests may expect
// (grader.java's rethrow); one that no test caught, and the program breaking a call (exiting,
// closing its channel, answering out of protocol: at once, whatever the tests catch), are the
// program's (exit 2).
final class Main {
    public static void main(String[] args) throws Exception {
        java.util.List<org.junit.platform.engine.DiscoverySelector> classes = new java.util.ArrayList<>();
        try (java.util.zip.ZipFile jar = new java.util.zip.ZipFile("/dev/fd/5")) {
            for (java.util.Enumeration<? extends java.util.zip.ZipEntry> e = jar.entries(); e.hasMoreElements();) {
                String name = e.nextElement().getName();
                if (!name.endsWith(".class") || name.contains("$") || name.contains("/") ||
                    name.startsWith("Verdict") || name.equals("Main.class"))
                    continue;
                classes.add(org.junit.platform.engine.discovery.DiscoverySelectors.selectClass(
                    name.substring(0, name.length() - 6)));
            }
        }
        VerdictGrader.rethrow = true;
        org.junit.platform.launcher.listeners.SummaryGeneratingListener listener =
            new org.junit.platform.launcher.listeners.SummaryGeneratingListener();
        org.junit.platform.launcher.core.LauncherFactory.create().execute(
            org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder.request()
                .selectors(classes).build(),
            listener);
        org.junit.platform.launcher.listeners.TestExecutionSummary s = listener.getSummary();
        for (org.junit.platform.launcher.listeners.TestExecutionSummary.Failure f : s.getFailures())
            if (VerdictGrader.raised.contains(f.getException())) { // no test caught it
                System.err.println("verdict grader: the program raised " + f.getException());
                System.err.flush();
                Runtime.getRuntime().halt(2);
            }
        if (s.getTotalFailureCount() > 0) {
            java.io.PrintWriter err = new java.io.PrintWriter(System.err);
            s.printFailuresTo(err, 25);
            err.flush();
            throw new AssertionError(s.getTotalFailureCount() + " of " + s.getTestsFoundCount() +
                                     " tests failed");
        }
    }
}
