/**
 * The test desktop for JUnit 5: {@link dev.saccade.testdesktop.WithTestDesktop} and
 * {@link dev.saccade.testdesktop.TestDesktopExtension} give a test class one
 * {@link dev.saccade.demodesktop.TestDesktop} of the demo-desktop module, started before its
 * {@code @BeforeAll} methods and closed after the class whatever its outcome. Test tooling only:
 * modules take it at test scope and it never ships in the distribution.
 */
package dev.saccade.testdesktop;
