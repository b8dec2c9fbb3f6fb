package dev.ordo.samples;

import dev.ordo.patterns.leaderboard.Entry;
import dev.ordo.patterns.leaderboard.Leaderboard;
import dev.ordo.patterns.leaderboard.Period;
import dev.ordo.patterns.leaderboard.PeriodicLeaderboard;
import dev.ordo.patterns.leaderboard.Placement;
import dev.ordo.spring.boot.web.RateLimited;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The game's leaderboard: one call adds a player's points to today's, this week's and the
 * all-time board together (one script, so the boards never disagree), and reads rank a player
 * among all, with ties sharing a rank. Rate-limited per user ({@code X-User}, else the address).
 */
@RestController
@RequestMapping("/api/game")
@RateLimited(value = "api", key = SampleApplication.USER_KEY)
class GameController {
    /** The longest top list or window one request may ask for. */
    static final int MAX_ENTRIES = 100;

    /** The boards of the game family, as application.yml declares them. */
    private static final List<String> BOARDS = List.of("daily", "weekly", "all-time");

    private final PeriodicLeaderboard game;

    GameController(@Qualifier("game") PeriodicLeaderboard game) {
        this.game = game;
    }

    /** Points to add, as the request body: {@code {"points": 25}}. */
    record Points(double points) {
    }

    /** Where a player stands on one board. */
    record Standing(String player, double score, long rank) {
        static Standing of(Placement<String> placement) {
            return new Standing(placement.member(), placement.score(), placement.rank());
        }
    }

    /** A player's rank and score on one board, and the players around them. */
    record MyRank(String player, double score, long rank, List<Entry<String>> around) {
    }

    @PostMapping("/players/{player}/points")
    Map<String, Standing> addPoints(@PathVariable String player, @RequestBody Points body) {
        List<Placement<String>> placements = game.addPointsAll(player, body.points());
        // application.yml declares daily, weekly, all-time: the placements come in that order
        Map<String, Standing> byBoard = new LinkedHashMap<>();
        for (int i = 0; i < placements.size(); i++) {
            byBoard.put(BOARDS.get(i), Standing.of(placements.get(i)));
        }
        return byBoard;
    }

    @GetMapping("/boards/{board}/top")
    List<Entry<String>> top(@PathVariable String board, @RequestParam(defaultValue = "10") int n) {
        return board(board).top(bounded(n));
    }

    @GetMapping("/boards/{board}/players/{player}")
    MyRank rank(@PathVariable String board, @PathVariable String player, @RequestParam(defaultValue = "5") int around) {
        Leaderboard leaderboard = board(board);
        long rank = leaderboard.rank(player)
                .orElseThrow(() -> new ResponseStatusException(HttpStatus.NOT_FOUND, player + " has no score on the " + board + " board"));
        return new MyRank(player, leaderboard.score(player).orElseThrow(), rank, leaderboard.around(player, bounded(around)));
    }

    private Leaderboard board(String name) {
        return switch (name) {
            case "daily" -> game.current(Period.daily());
            case "weekly" -> game.current(Period.weekly());
            case "all-time" -> game.allTime();
            default -> throw new ResponseStatusException(HttpStatus.NOT_FOUND, "no board " + name + "; boards: daily, weekly, all-time");
        };
    }

    private static int bounded(int n) {
        if (n < 1 || n > MAX_ENTRIES) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "ask for 1 to " + MAX_ENTRIES + " entries, not " + n);
        }
        return n;
    }
}
