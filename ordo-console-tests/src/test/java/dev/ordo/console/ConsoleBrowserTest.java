package dev.ordo.console;

import dev.ordo.patterns.leaderboard.Leaderboard;
import dev.ordo.patterns.leaderboard.BoardOptions;
import dev.ordo.patterns.queue.DelayedJobQueue;
import dev.ordo.patterns.queue.Due;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.catalina.Context;
import org.apache.catalina.Wrapper;
import org.apache.catalina.startup.Tomcat;
import org.apache.tomcat.util.descriptor.web.FilterDef;
import org.apache.tomcat.util.descriptor.web.FilterMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The console's web UI in a headless Chromium, against an embedded Ordo whose data the pattern
 * classes wrote ({@link ConsoleFixture}): every figure the page shows is checked against what the
 * same pattern answers from Java. The page marks each finished render in
 * {@code window.__ordoRendered}, which the tests wait for (never a sleep). Screenshots of each
 * page land in {@code target/console-screenshots}.
 *
 * <p>Without {@code /usr/bin/chromium} and {@code /usr/bin/chromedriver} the tests are skipped,
 * and fail under {@code CI=true}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConsoleBrowserTest {
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Path SCREENSHOTS = Path.of("target", "console-screenshots");
    private static final double TARGET_MS = 300;

    private ConsoleFixture data;
    private Path profile;
    private ChromeDriver driver;
    private WebDriverWait wait;

    @BeforeAll
    void start() throws Exception {
        requireBrowser();
        data = new ConsoleFixture();
        profile = Files.createTempDirectory("ordo-console-chromium");
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort().build();
        ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM.toFile()).addArguments("--headless=new", "--no-sandbox", "--disable-gpu",
                "--disable-dev-shm-usage", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--window-size=1400,1000", "--user-data-dir=" + profile);
        driver = new ChromeDriver(service, options);
        wait = new WebDriverWait(driver, Duration.ofSeconds(15));
        Files.createDirectories(SCREENSHOTS);
    }

    @AfterAll
    void stop() throws IOException {
        if (driver != null) {
            driver.quit();
        }
        if (data != null) {
            data.close();
        }
        if (profile != null) {
            try (var files = Files.walk(profile)) {
                files.sorted(java.util.Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
            }
        }
    }

    @Test
    void overviewShowsLiveFiguresAndThePatterns() {
        open(data.writable, "#/", "overview");
        String firstReading = attribute("fig-at", "data-at");
        wait.until(d -> text("live-status").equals("live") && !attribute("fig-at", "data-at").equals(firstReading));

        assertThat(Long.parseLong(attribute("fig-keys", "data-value"))).isGreaterThanOrEqualTo(4);
        assertThat(Long.parseLong(attribute("fig-memory", "data-value"))).isPositive();
        assertThat(driver.findElements(By.cssSelector("#ops-chart canvas, #memory-chart canvas"))).hasSize(2);
        assertThat(text("list-boards")).contains("game");
        assertThat(text("list-queues")).contains("jobs", "mail");
        assertThat(text("list-limiters")).contains("api");
        assertThat(text("mode-badge")).isEqualTo("WRITABLE");
        screenshot("overview");
    }

    @Test
    void searchingAMemberShowsItsRank() {
        open(data.writable, "#/", "overview");
        driver.findElement(By.cssSelector("[data-test='nav-boards-game']")).click();
        awaitRender("board");
        assertThat(text("board-tie-rule")).isEqualTo("member-order");
        assertThat(text("board-order")).isEqualTo("highest-first");

        String member = "player-17";
        search(member);

        assertThat(number("member-rank")).isEqualTo(data.game.rank(member).getAsLong());
        assertThat(driver.findElement(By.cssSelector("#around-table tr.me")).getDomAttribute("data-member")).isEqualTo(member);
        screenshot("leaderboard");
    }

    @Test
    void editingAScoreThroughTheModalShowsTheNewRank() {
        String member = "player-50";
        open(data.writable, "#/boards/game", "board");
        driver.findElement(By.cssSelector("#board-table tr[data-member='" + member + "'] [data-test='edit']")).click();
        WebElement input = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("modal-input")));
        input.clear();
        input.sendKeys("5");
        screenshot("edit-modal");
        driver.findElement(By.id("modal-confirm")).click();

        wait.until(d -> data.game.score(member).orElse(-1) == 5);
        wait.until(d -> rendered().equals("member") && !d.findElements(By.cssSelector("#around-table tr.me[data-member='" + member + "']")).isEmpty());
        long rank = data.game.rank(member).getAsLong();
        assertThat(rank).isEqualTo(data.game.count());
        assertThat(number("member-rank")).isEqualTo(rank);
        assertThat(driver.findElement(By.id("modal")).isDisplayed()).isFalse();
    }

    /**
     * The console as the Spring Boot starter mounts it: {@link ConsoleServlet} in a servlet
     * container (Tomcat, as Boot embeds), below {@code /ordo/}, behind a filter that refuses any
     * write without its CSRF token, as Spring Security's does; the servlet hands the token to the
     * page in the response headers the starter sets. The page must send it back with the edit.
     */
    @Test
    void mountedAsAServletBehindCsrf_theEditCarriesTheHostsToken() throws Exception {
        String token = "t0k3n-" + System.nanoTime();
        java.util.concurrent.atomic.AtomicInteger refused = new java.util.concurrent.atomic.AtomicInteger();
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(Files.createTempDirectory("ordo-console-tomcat").toString());
        tomcat.setPort(0);
        Context context = tomcat.addContext("", null);
        Wrapper servlet = Tomcat.addServlet(context, "ordo", new ConsoleServlet(new ConsoleHttp(data.writableConsole),
                request -> java.util.Map.of("X-Ordo-Csrf-Header", "X-Test-Csrf", "X-Ordo-Csrf-Token", token)));
        servlet.setAsyncSupported(true);
        context.addServletMappingDecoded("/ordo/*", "ordo");
        FilterDef csrf = new FilterDef();
        csrf.setFilterName("csrf");
        csrf.setAsyncSupported("true");
        csrf.setFilter((request, response, chain) -> {
            HttpServletRequest http = (HttpServletRequest) request;
            if (!http.getMethod().equals("GET") && !token.equals(http.getHeader("X-Test-Csrf"))) {
                refused.incrementAndGet();
                ((HttpServletResponse) response).sendError(403, "Invalid CSRF token");
                return;
            }
            chain.doFilter(request, response);
        });
        context.addFilterDef(csrf);
        FilterMap everything = new FilterMap();
        everything.setFilterName("csrf");
        everything.addURLPattern("/*");
        context.addFilterMap(everything);
        tomcat.getConnector();
        tomcat.start();
        try {
            String member = "player-55";
            driver.get("about:blank");
            driver.get("http://127.0.0.1:" + tomcat.getConnector().getLocalPort() + "/ordo/#/");
            awaitRender("overview");
            wait.until(d -> !d.findElements(By.cssSelector("#nav a[href='#/boards/game']")).isEmpty());
            driver.findElement(By.cssSelector("#nav a[href='#/boards/game']")).click();
            awaitRender("board");
            driver.findElement(By.cssSelector("#board-table tr[data-member='" + member + "'] [data-test='edit']")).click();
            WebElement input = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("modal-input")));
            input.clear();
            input.sendKeys("333");
            driver.findElement(By.id("modal-confirm")).click();

            wait.until(d -> data.game.score(member).orElse(-1) == 333);
            assertThat(refused).as("writes refused for want of the token").hasValue(0);
        } finally {
            tomcat.stop();
            tomcat.destroy();
        }
    }

    @Test
    void removingAMemberWaitsForTheModalsConfirm() {
        String member = "player-40";
        open(data.writable, "#/boards/game", "board");
        By remove = By.cssSelector("#board-table tr[data-member='" + member + "'] [data-test='remove']");
        driver.findElement(remove).click();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("modal-cancel"))).click();
        wait.until(ExpectedConditions.invisibilityOfElementLocated(By.id("modal")));
        assertThat(data.game.rank(member)).isPresent();

        long before = data.game.count();
        driver.findElement(remove).click();
        clearRendered();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("modal-confirm"))).click();
        awaitRender("board");
        assertThat(data.game.rank(member)).isEmpty();
        assertThat(driver.findElements(By.cssSelector("#board-table tr[data-member='" + member + "']"))).isEmpty();
        assertThat(number("board-count")).isEqualTo(before - 1).isEqualTo(data.game.count());
    }

    @Test
    void theBoardPagesByRank() {
        open(data.writable, "#/boards/game", "board");
        clearRendered();
        driver.findElement(By.id("page-next")).click();
        awaitRender("board");
        WebElement first = driver.findElement(By.cssSelector("#board-table tbody tr"));
        assertThat(first.getDomAttribute("data-rank")).isEqualTo("26");
        assertThat(data.game.rank(first.getDomAttribute("data-member"))).hasValue(26);
        assertThat(driver.findElement(By.id("page-prev")).isEnabled()).isTrue();
    }

    @Test
    void aDeadLetterRetriedThroughThePageLeavesTheDeadCount() {
        DelayedJobQueue<String> jobs = data.jobs;
        jobs.schedule("charge-42", "{\"order\":42}", Due.now());
        jobs.nack(jobs.claim(1).get(0), "card declined");
        DelayedJobQueue.Counts before = jobs.counts();
        assertThat(before.dead()).isEqualTo(1);

        open(data.writable, "#/queues/jobs", "queue");
        assertThat(number("count-dead")).isEqualTo(1);
        driver.findElement(By.cssSelector(".dead-group[data-reason='card declined'] [data-test='retry-group']")).click();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("modal-confirm"))).click();
        wait.until(d -> number("count-dead") == 0);

        DelayedJobQueue.Counts after = jobs.counts();
        assertThat(after.dead()).isZero();
        assertThat(after.ready() + after.delayed()).isEqualTo(before.ready() + before.delayed() + 1);
        assertThat(number("count-ready")).isEqualTo(after.ready());
        assertThat(number("count-delayed")).isEqualTo(after.delayed());
        assertThat(number("count-inFlight")).isEqualTo(after.inFlight());
    }

    @Test
    void theQueuePageShowsDueJobsInFlightJobsAndDeadLetters() {
        open(data.writable, "#/queues/mail", "queue");
        assertThat(driver.findElements(By.cssSelector("#due-histogram .bar"))).hasSize(30);
        assertThat(text("inflight-table")).contains("digest");
        assertThat(driver.findElements(By.cssSelector(".dead-group[data-reason='mailbox unavailable'] tr[data-job='bounce']"))).hasSize(1);
        assertThat(number("count-delayed")).isEqualTo(data.mail.counts().delayed());
        screenshot("queue");
    }

    @Test
    void aPeriodicBoardsPeriodSelectorShowsEachPeriodsBoard() {
        open(data.writable, "#/boards/season", "board");
        assertThat(new Select(driver.findElement(By.id("period"))).getFirstSelectedOption().getText()).isEqualTo("daily");
        assertThat(driver.findElements(By.cssSelector("#board-table tr[data-member='veteran']"))).isEmpty();

        clearRendered();
        new Select(driver.findElement(By.id("period"))).selectByValue("all-time");
        awaitRender("board");
        WebElement top = driver.findElement(By.cssSelector("#board-table tbody tr"));
        assertThat(top.getDomAttribute("data-member")).isEqualTo("veteran");
        assertThat(Long.parseLong(top.getDomAttribute("data-rank"))).isEqualTo(data.season.allTime().rank("veteran").getAsLong());
        assertThat(number("board-count")).isEqualTo(data.season.allTime().count());
    }

    @Test
    void aPriorityQueueShowsItsDepthByPriority() {
        open(data.writable, "#/queues/tasks", "queue");
        assertThat(number("count-ready")).isEqualTo(data.tasks.size());
        assertThat(driver.findElements(By.cssSelector("#priority-depth .bar"))).hasSize(data.tasks.depthByPriority().size());
        assertThat(text("priority-depth")).contains("p0", "p5", "p10");
    }

    @Test
    void aLimitersKeyAppearsAfterRequests() {
        for (int i = 0; i < 3; i++) {
            data.api.tryAcquire("user-42");
        }
        open(data.writable, "#/limiters/api", "limiter");
        WebElement row = driver.findElement(By.cssSelector("#limiter-keys tr[data-key='user-42']"));
        assertThat(row.getText()).contains(data.api.peek("user-42").remaining() + " of 5");

        driver.findElement(By.id("limiter-key")).sendKeys("user-42");
        driver.findElement(By.cssSelector("#limiter-key-form button")).click();
        awaitRender("limiter-key");
        assertThat(driver.findElement(By.cssSelector("#limiter-key-table tr[data-key='user-42']")).getText())
                .contains(data.api.peek("user-42").remaining() + " of 5");
        screenshot("limiter");
    }

    @Test
    void theKeyBrowserOpensTheBoardsSortedSetWithZrankRanks() {
        open(data.writable, "#/keys", "keys");
        screenshot("key-browser");
        WebElement match = driver.findElement(By.id("key-match"));
        match.clear();
        match.sendKeys("{game}");
        new Select(driver.findElement(By.id("key-type"))).selectByValue("zset");
        clearRendered();
        driver.findElement(By.id("key-scan")).click();
        awaitRender("keys");
        driver.findElement(By.cssSelector("#keys-table tr[data-key='{game}'] a")).click();
        awaitRender("zset");

        assertThat(text("zset-type")).isEqualTo("zset");
        assertThat(number("zset-card")).isEqualTo(data.game.count());
        List<WebElement> rows = driver.findElements(By.cssSelector("#zset-table tr[data-member]"));
        assertThat(rows).isNotEmpty();
        for (WebElement row : rows) {
            assertThat(Long.parseLong(row.getDomAttribute("data-rank"))).isEqualTo(data.zrank("{game}", row.getDomAttribute("data-member")));
        }
        screenshot("zset");

        new Select(driver.findElement(By.id("zset-by"))).selectByValue("score");
        driver.findElement(By.id("zset-min")).sendKeys("(100");
        driver.findElement(By.id("zset-max")).sendKeys("150");
        driver.findElement(By.id("zset-rev")).click();
        clearRendered();
        driver.findElement(By.id("zset-go")).click();
        awaitRender("zset");
        List<String> members = driver.findElements(By.cssSelector("#zset-table tr[data-member]")).stream().map(r -> r.getDomAttribute("data-member")).toList();
        assertThat(members).containsExactly("player-15", "player-14", "player-13", "player-12", "player-11");
        assertThat(Long.parseLong(driver.findElement(By.cssSelector("#zset-table tr[data-member='player-15']")).getDomAttribute("data-rank")))
                .isEqualTo(data.game.count() - 1 - data.zrank("{game}", "player-15"));
    }

    @Test
    void theKeyBrowserFollowsTheScanCursorToTheEnd() {
        data.strings("page:", 250);
        open(data.writable, "#/keys", "keys");
        WebElement match = driver.findElement(By.id("key-match"));
        match.clear();
        match.sendKeys("page:*");
        clearRendered();
        driver.findElement(By.id("key-scan")).click();
        awaitRender("keys");
        java.util.Set<String> seen = new java.util.HashSet<>();
        while (true) {
            driver.findElements(By.cssSelector("#keys-table tr[data-key]")).forEach(r -> seen.add(r.getDomAttribute("data-key")));
            List<WebElement> next = driver.findElements(By.id("keys-next"));
            if (next.isEmpty()) {
                break;
            }
            clearRendered();
            next.get(0).click();
            awaitRender("keys");
        }
        assertThat(driver.findElements(By.id("scan-done"))).hasSize(1);
        assertThat(seen).hasSize(250).allMatch(k -> k.startsWith("page:"));
    }

    @Test
    void anApiErrorShowsInTheBanner() {
        driver.get("about:blank");
        driver.get(ConsoleFixture.url(data.writable) + "#/boards/nosuch");
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("error-banner")));
        assertThat(text("error-text")).contains("nosuch");
    }

    @Test
    void aReadOnlyConsoleOffersNoWrites() {
        open(data.readOnly, "#/boards/game", "board");
        assertThat(text("mode-badge")).isEqualTo("READ-ONLY");
        assertThat(driver.findElements(By.cssSelector("[data-test='edit'], [data-test='remove']"))).isEmpty();

        open(data.readOnly, "#/queues/mail", "queue");
        assertThat(driver.findElements(By.cssSelector(".dead-group"))).isNotEmpty();
        assertThat(driver.findElements(By.cssSelector("[data-test='retry-group'], [data-test='retry-job'], #purge-dead"))).isEmpty();
        Object status = driver.executeAsyncScript("fetch('api/queues/mail/dead/purge', {method: 'POST', headers: {'X-Ordo-Console': '1'},"
                + " body: '{\"max\": 1}'}).then(r => arguments[0](r.status))");
        assertThat(status).isEqualTo(403L);
    }

    @Test
    void aMillionMemberBoardRendersItsPages() {
        data.registerBoard("big");
        data.fill("big", 1_000_000);
        Leaderboard big = Leaderboard.create(data.store, "big", BoardOptions.highestFirst());

        open(data.writable, "#/", "overview");
        double overview = renderedAt();
        assertThat(driver.findElements(By.cssSelector("a[href='#/boards/big']"))).isNotEmpty();

        open(data.writable, "#/keys", "keys");
        double keys = renderedAt();

        open(data.writable, "#/boards/big", "board");
        double pageLoad = renderedAt();
        assertThat(number("board-count")).isEqualTo(1_000_000);
        assertThat(driver.findElement(By.cssSelector("#board-table tbody tr")).getDomAttribute("data-member")).isEqualTo("m0999999");

        String member = "m0500000";
        double searchStart = ((Number) driver.executeScript("window.__ordoRendered = null;"
                + " document.getElementById('member-search').value = arguments[0];"
                + " const t = performance.now(); document.getElementById('member-form').requestSubmit(); return t;", member)).doubleValue();
        awaitRender("member");
        double search = renderedAt() - searchStart;
        assertThat(number("member-rank")).isEqualTo(big.rank(member).getAsLong());

        double routeStart = ((Number) driver.executeScript("window.__ordoRendered = null;"
                + " const t = performance.now(); location.hash = '#/zsets/' + encodeURIComponent('{big}'); return t;")).doubleValue();
        awaitRender("zset");
        double zsetView = renderedAt() - routeStart;
        assertThat(number("zset-card")).isEqualTo(1_000_000);
        assertThat(driver.findElement(By.cssSelector("#zset-table tbody tr")).getDomAttribute("data-rank")).isEqualTo("0");

        System.out.printf("console page load on a 1,000,000-member board (target %.0f ms each):%n", TARGET_MS);
        System.out.printf("  overview, navigation start to rendered: %6.1f ms%n", overview);
        System.out.printf("  key browser, navigation start to first SCAN page rendered: %6.1f ms%n", keys);
        System.out.printf("  board page, navigation start to table rendered: %6.1f ms%n", pageLoad);
        System.out.printf("  member search, submit to rank and around-me rendered: %6.1f ms%n", search);
        System.out.printf("  raw zset page, route change to table rendered: %6.1f ms%n", zsetView);
    }

    // ------------------------------------------------------------------ helpers

    private static void requireBrowser() {
        if (Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER)) {
            return;
        }
        String reason = "the browser tests need " + CHROMIUM + " and " + CHROMEDRIVER + " (Debian: apt-get install chromium chromium-driver)";
        if ("true".equals(System.getenv("CI"))) {
            fail(reason);
        }
        assumeTrue(false, reason);
    }

    /** Loads the console afresh at {@code hash} and waits for the page's render of {@code what}. */
    private void open(ConsoleServer server, String hash, String what) {
        driver.get("about:blank");
        driver.get(ConsoleFixture.url(server) + hash);
        awaitRender(what);
    }

    private void clearRendered() {
        driver.executeScript("window.__ordoRendered = null;");
    }

    /** Waits for the page's render of {@code what}; fails at once, with its text, when the page shows an error banner. */
    private void awaitRender(String what) {
        wait.until(d -> {
            Object error = driver.executeScript("const b = document.getElementById('error-banner'); return b && !b.hidden ? b.textContent.trim() : null;");
            if (error != null) {
                fail("the page shows an error: " + error);
            }
            return rendered().equals(what);
        });
    }

    private String rendered() {
        Object what = driver.executeScript("return window.__ordoRendered ? window.__ordoRendered.what : '';");
        return String.valueOf(what);
    }

    private double renderedAt() {
        return ((Number) driver.executeScript("return window.__ordoRendered.at;")).doubleValue();
    }

    private void search(String member) {
        WebElement box = driver.findElement(By.id("member-search"));
        box.clear();
        box.sendKeys(member);
        clearRendered();
        driver.findElement(By.id("member-go")).click();
        awaitRender("member");
    }

    /** An element's text, read in the page (the live feed may replace the element between a find and a read). */
    private String text(String id) {
        return String.valueOf(driver.executeScript("return document.getElementById(arguments[0]).textContent.trim();", id));
    }

    private String attribute(String id, String name) {
        return String.valueOf(driver.executeScript("return document.getElementById(arguments[0]).getAttribute(arguments[1]);", id, name));
    }

    /** A figure's exact value, from the data-value the page keeps beside the formatted text. */
    private long number(String id) {
        return (long) Double.parseDouble(attribute(id, "data-value"));
    }

    private void screenshot(String name) {
        File shot = ((TakesScreenshot) driver).getScreenshotAs(OutputType.FILE);
        try {
            Files.copy(shot.toPath(), SCREENSHOTS.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
