package dev.ordo.engine.zset;

/** How ZUNION / ZINTER combine the weighted scores of a member found in several inputs. */
public enum Aggregate {
    /** The sum; +inf plus -inf gives 0, never NaN. */
    SUM {
        @Override
        double combine(double acc, double value) {
            double sum = acc + value;
            return Double.isNaN(sum) ? 0.0 : sum;
        }
    },
    /** The smallest; a NaN value never replaces the accumulated score. */
    MIN {
        @Override
        double combine(double acc, double value) {
            return value < acc ? value : acc;
        }
    },
    /** The largest; a NaN value never replaces the accumulated score. */
    MAX {
        @Override
        double combine(double acc, double value) {
            return value > acc ? value : acc;
        }
    };

    /** Folds {@code value} into {@code acc}. */
    abstract double combine(double acc, double value);
}
