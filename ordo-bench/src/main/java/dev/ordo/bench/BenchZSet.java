package dev.ordo.bench;

/** The operations the sorted-set benchmarks measure, over Ordo's ZSet or the baseline. */
interface BenchZSet {
    void add(byte[] member, double score);

    double increment(byte[] member, double delta);

    double score(byte[] member);

    long rank(byte[] member);

    boolean remove(byte[] member);

    /** Visits the top {@code n} members, highest first; returns a checksum of what it saw. */
    long topReverse(int n);

    /**
     * Ranks {@code member}, then visits the {@code n} members in ascending order around it (as a
     * leaderboard's window does); returns a checksum of the rank and what it saw.
     */
    long around(byte[] member, int n);

    /** Visits the first {@code n} members with a score of at least {@code min}; returns a checksum. */
    long rangeByScore(double min, int n);

    int size();
}
