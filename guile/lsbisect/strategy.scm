;;; SPDX-License-Identifier: GPL-2.0-only
;;; (lsbisect strategy) - the default bisection strategy and the judges
;;; that decide whether a revision is bad. A user's script (--script) may
;;; define `predicate', `judge' or `strategy' to replace them; see
;;; guile/README.md.

(define-module (lsbisect strategy)
  #:use-module (lsbisect)
  #:use-module (srfi srfi-1)
  #:use-module (srfi srfi-11)
  #:export (class-index class-commit class-commits class-subset
            energy mean-power balance work-conservation wakeup-p99
            usage-error median mann-whitney-p
            threshold-judge predicate->judge default-judge
            runs-of evaluate default-strategy bisect-with
            ceil-log round-picks round-update search)
  #:re-export (higher-is-better?))

;;; Classes, as (session 'classes) and revision-range give them.
(define (class-index c) (assq-ref c 'index))
(define (class-commit c) (assq-ref c 'commit))
(define (class-commits c) (assq-ref c 'commits))
(define (class-subset c) (assq-ref c 'subset))

;;; Metrics by their usual names.
(define (energy r) (metric r "energy_j"))
(define (mean-power r) (metric r "mean_power_w"))
(define (balance r) (metric r "balance_score"))
(define (work-conservation r) (metric r "work_conservation"))
(define (wakeup-p99 r) (metric r "wakeup_latency_ns.p99"))

(define (usage-error fmt . args)
  "Stop the bisection: its arguments do not make one (exit status 2)."
  (throw 'lsbisect-usage (apply format #f fmt args)))

;;; Which way a metric goes is (lsbisect)'s higher-is-better?: the
;;; catalogue of metrics/catalogue.c, lower is better for other names.

(define (median xs)
  (let* ((v (list->vector (sort xs <)))
         (n (vector-length v))
         (h (quotient n 2)))
    (if (odd? n)
        (vector-ref v h)
        (/ (+ (vector-ref v (- h 1)) (vector-ref v h)) 2))))

;;; The number of orderings of n xs and m ys, all distinct, in which U
;;; (the pairs x < y) takes each value 0 .. n*m: the exact null
;;; distribution of the Mann-Whitney statistic.
(define (u-counts n m)
  (let ((memo (make-hash-table)))
    (define (f i j)
      (let ((key (cons i j)))
        (or (hash-ref memo key)
            (let ((v (make-vector (+ (* i j) 1) 0)))
              (if (or (zero? i) (zero? j))
                  (vector-set! v 0 1)
                  ;; the largest value is an x (adds nothing) or a y
                  ;; (above all i xs)
                  (let ((a (f (- i 1) j))
                        (b (f i (- j 1))))
                    (do ((u 0 (+ u 1))) ((= u (vector-length a)))
                      (vector-set! v u (+ (vector-ref v u) (vector-ref a u))))
                    (do ((u 0 (+ u 1))) ((= u (vector-length b)))
                      (vector-set! v (+ u i)
                                   (+ (vector-ref v (+ u i))
                                      (vector-ref b u))))))
              (hash-set! memo key v)
              v))))
    (f n m)))

;;; erfc, Abramowitz and Stegun 7.1.26 (error below 1.5e-7).
(define (erfc x)
  (if (< x 0)
      (- 2 (erfc (- x)))
      (let* ((t (/ 1 (+ 1 (* 0.3275911 x))))
             (poly (* t (+ 0.254829592
                           (* t (+ -0.284496736
                                   (* t (+ 1.421413741
                                           (* t (+ -1.453152027
                                                   (* t 1.061405429)))))))))))
        (* poly (exp (- (* x x)))))))

(define (mann-whitney-p xs ys)
  "The one-sided p-value of the Mann-Whitney U test that the ys tend to
be larger than the xs: exact (ties count a half) up to 20 values a side,
a normal approximation with continuity correction above."
  (let* ((n (length xs))
         (m (length ys))
         (u (apply + (map (lambda (y)
                            (apply + (map (lambda (x)
                                            (cond ((< x y) 1)
                                                  ((= x y) 1/2)
                                                  (else 0)))
                                          xs)))
                          ys))))
    (if (and (<= n 20) (<= m 20))
        (let* ((counts (u-counts n m))
               (total (apply + (vector->list counts)))
               (from (inexact->exact (ceiling u))))
          (exact->inexact
           (/ (apply + (map (lambda (k) (vector-ref counts k))
                            (iota (- (vector-length counts) from) from)))
              total)))
        (let ((mean (/ (* n m) 2))
              (sd (sqrt (/ (* n m (+ n m 1)) 12))))
          (* 0.5 (erfc (/ (- u 1/2 mean) (* sd (sqrt 2)))))))))

;;; Judges: (judge GOODS THESE) with the results of GOOD and of a revision
;;; for the same seeds gives good, bad or undecided, alone or as the car
;;; of a list of details to log.

(define (constant? xs)
  (every (lambda (x) (= x (car xs))) xs))

(define (threshold-judge name threshold)
  "Bad when the median of metric NAME is worse than GOOD's by more than
THRESHOLD percent and, with several seeds whose values vary, a one-sided
Mann-Whitney test agrees (p < 0.05); undecided when only the threshold
passes. Higher is worse, except where the metric catalogue says otherwise."
  (let ((sign (if (higher-is-better? name) -1 1)))
    (lambda (goods these)
      (let* ((gv (map (lambda (r) (* sign (metric r name))) goods))
             (tv (map (lambda (r) (* sign (metric r name))) these))
             (g (median gv))
             (t (median tv))
             (worse (- t g))
             (limit (max (* (/ threshold 100) (abs g)) 1e-12))
             (deterministic (and (constant? gv) (constant? tv)))
             (p (if (or deterministic (< (length tv) 2))
                    #f
                    (mann-whitney-p gv tv)))
             (verdict (cond ((<= worse limit) 'good)
                            ((or (not p) (< p 0.05)) 'bad)
                            (else 'undecided))))
        (list verdict
              (cons 'good (exact->inexact (* sign g)))
              (cons 'this (exact->inexact (* sign t)))
              (cons 'change_pct (if (zero? g)
                                    (if (zero? t) 0 'null)
                                    (exact->inexact
                                     (* 100 (/ (- t g) (abs g)) sign))))
              (cons 'p (or p 'null))
              (cons 'seeds (length tv)))))))

(define (predicate->judge pred)
  "A judge from a predicate (lambda (good this) ...) on single results:
bad when it holds for every seed, good when for none, else undecided."
  (lambda (goods these)
    (let* ((votes (map (lambda (g t) (and (pred g t) #t)) goods these))
           (bad (count identity votes)))
      (list (cond ((= bad (length votes)) 'bad)
                  ((zero? bad) 'good)
                  (else 'undecided))
            (cons 'bad_seeds bad)
            (cons 'seeds (length votes))))))

(define (default-judge)
  (threshold-judge (session 'metric) (session 'threshold)))

(define (verdict-of j)
  (if (pair? j) (values (car j) (cdr j)) (values j '())))

;;; Running revisions.

(define (runs-of commit k)
  "The results of COMMIT for seeds 1 .. K. The seeds the log lacks run
first, at once, on the engine (prefetch); each run then reads its own."
  (prefetch commit k)
  (map (lambda (seed) (run commit seed)) (iota k 1)))

(define (evaluate commit judge)
  "Decide COMMIT against GOOD: (values verdict reason details), verdict
good, bad or skip. An undecided revision gets twice the seeds, up to
(session 'max-seeds), then it is skipped."
  (let loop ((k (session 'seeds)))
    (let* ((these (runs-of commit k))
           (skipped (find skip? these)))
      (if skipped
          (values 'skip (skip-reason skipped) '())
          (let-values (((verdict details)
                        (verdict-of (judge (runs-of (session 'good) k) these))))
            (cond ((not (eq? verdict 'undecided))
                   (values verdict "" details))
                  ((< k (session 'max-seeds))
                   (loop (min (session 'max-seeds) (* 2 k))))
                  (else
                   (values 'skip
                           (format #f "undecided after ~a seeds" k)
                           details))))))))

(define* (check-good judge #:optional round)
  "GOOD must run and must not be bad against itself."
  (let* ((good (session 'good))
         (goods (runs-of good (session 'seeds)))
         (skipped (find skip? goods)))
    (when skipped
      (usage-error "GOOD '~a' cannot be tested: ~a"
                   (session 'good-name) (skip-reason skipped)))
    ;; the metric the report shows must be there, whatever the judge uses
    (catch 'lsbisect-metric
      (lambda () (metric (car goods) (session 'metric)))
      (lambda (key subr fmt args rest)
        (usage-error "~a" (car args))))
    (let-values (((verdict details) (verdict-of (judge goods goods))))
      (log-step -1 "good" "" details round)
      (unless (eq? verdict 'good)
        (usage-error "GOOD '~a' does not score as good against itself (~a)"
                     (session 'good-name) verdict)))))

;;; The search, over classes: GOOD is before class 0, BAD is the last
;;; class. lo is the last class known good (-1: GOOD), hi the first known
;;; bad; a round tests the untested classes nearest the points that cut
;;; lo..hi into WIDTH + 1 equal parts: with width 1, the one nearest the
;;; middle, as halving does.

(define (ceil-log base n)
  "The least k with BASE^k >= N."
  (let loop ((k 0) (p 1))
    (if (>= p n) k (loop (+ k 1) (* base p)))))

(define (ceil-log2 n) (ceil-log 2 n))

(define (nearest xs x)
  "The element of the non-empty list XS (ascending) nearest X, the lower
on a tie."
  (fold (lambda (i best) (if (< (abs (- i x)) (abs (- best x))) i best))
        (car xs) (cdr xs)))

(define* (round-picks open lo hi width #:optional (away? #t))
  "Up to WIDTH classes of OPEN (ascending, between LO and HI), ascending:
for each point lo + k (hi - lo) / (width + 1), k = 1 .. WIDTH, the class
left nearest to it (the lower on a tie). Width 1 gives the class nearest
the middle. The classes between LO and HI that are not in OPEN are the
skipped ones: when the class nearest a point is one (AWAY?, the default),
the pick goes away from the skipped classes around it, as git bisect's
skip_away does but deterministically: to the class nearest the middle of
the larger side of them (open classes counted, the lower side on a tie),
between them and LO or HI."
  (let loop ((k 1) (left open) (chosen '()))
    (if (or (> k width) (null? left))
        (sort chosen <)
        (let* ((cut (+ lo (/ (* k (- hi lo)) (+ width 1))))
               (all (filter (lambda (i) (not (memv i chosen)))
                            (iota (max 0 (- hi lo 1)) (+ lo 1))))
               (m (nearest all cut))
               (target
                (if (or (not away?) (memv m left))
                    cut
                    ;; the run of skipped classes m is in
                    (let* ((skipped? (lambda (i) (and (< lo i hi)
                                                     (not (memv i open)))))
                           (first (let down ((i m))
                                    (if (skipped? (- i 1)) (down (- i 1)) i)))
                           (last (let up ((i m))
                                   (if (skipped? (+ i 1)) (up (+ i 1)) i)))
                           (below (count (lambda (i) (< i first)) left))
                           (above (count (lambda (i) (> i last)) left)))
                      (if (>= below above)
                          (/ (+ lo first) 2)
                          (/ (+ last hi) 2)))))
               (pick (nearest left target)))
          (loop (+ k 1) (delete pick left) (cons pick chosen))))))

(define (round-update lo hi picks verdicts)
  "(values lo hi skipped) after a round: hi the first class found bad, lo
the last found good below it (a good class above a bad one says nothing),
skipped the classes skipped."
  (let* ((hi (fold (lambda (i v m) (if (eq? v 'bad) (min i m) m))
                   hi picks verdicts))
         (lo (fold (lambda (i v m) (if (and (eq? v 'good) (< i hi)) (max i m) m))
                   lo picks verdicts)))
    (values lo hi (filter-map (lambda (i v) (and (eq? v 'skip) i))
                              picks verdicts))))

(define* (search n width test-round
                 #:optional (join (lambda (lo hi skipped) (values lo hi)))
                 #:key (away? #t))
  "The search over classes 0 .. N-1, class N-1 known bad, in rounds of up
to WIDTH classes: (TEST-ROUND PICKS LO HI OPEN) tests the classes PICKS and
gives their verdicts, good, bad or skip, in their order. Before each round
(JOIN LO HI SKIPPED) may move lo up and hi down over classes known to
share their verdict without a test, and may give as a third value classes
known to be skipped with a tested one. Picks go away from skipped classes
(round-picks) unless AWAY? is #f. The answer: (culprit CLASS), or
(ambiguous CLASS ...) when only skipped classes are left before hi."
  (let loop ((lo0 -1) (hi0 (- n 1)) (skipped0 '()))
    (let*-values (((lo hi more)
                   (call-with-values (lambda () (join lo0 hi0 skipped0))
                     (lambda* (lo hi #:optional (more '()))
                       (values lo hi more))))
                  ((skipped) (lset-union = skipped0 more))
                  ((open) (filter (lambda (i) (not (memv i skipped)))
                                  (iota (max 0 (- hi lo 1)) (+ lo 1)))))
      (if (null? open)
          (let ((between (sort (filter (lambda (i) (< lo i hi)) skipped) <)))
            (test-round '() lo hi open)
            (if (null? between)
                (list 'culprit hi)
                (cons 'ambiguous (append between (list hi)))))
          (let* ((picks (round-picks open lo hi width away?))
                 (verdicts (test-round picks lo hi open)))
            (let-values (((lo hi more) (round-update lo hi picks verdicts)))
              (loop lo hi (lset-union = skipped more))))))))

(define (default-strategy judge)
  (let* ((classes (session 'classes))
         (n (vector-length classes))
         (width (session 'width))
         ;; logs of format 1 are decided again by the rules of their time:
         ;; a skip one class at a time, the next pick the next nearest
         (whole-builds (>= (session 'format) 2))
         (commit-of (lambda (i)
                      (if (< i 0)
                          (session 'good)
                          (class-commit (vector-ref classes i)))))
         (commits-in (lambda (lo hi)
                       (apply + (map (lambda (i)
                                       (length (class-commits
                                                (vector-ref classes i))))
                                     (iota (- hi lo) (+ lo 1))))))
         ;; the round's number; #f with width 1: steps are not in rounds
         (round (and (> width 1) 0))
         (begin-round (lambda (is)
                        (when round
                          (set! round (+ round 1))
                          (prefetch-many (map commit-of is) (session 'seeds)))))
         (bad-reason "")
         (tested (make-hash-table))	; class -> its details
         (bounds (cons -1 (- n 1)))	; lo and hi of the round being tested
         (skipped-with '())		; classes skipped with a tested one
         ;; the untested classes next to I, inside the round's bounds,
         ;; whose build is I's, ascending
         (same-build-around
          (lambda (i)
            (let ((along (lambda (step)
                           (let loop ((k (+ i step)) (found '()))
                             (if (and (< (car bounds) k (cdr bounds))
                                      (not (hash-ref tested k))
                                      (same-build? (commit-of i) (commit-of k)))
                                 (loop (+ k step) (cons k found))
                                 found)))))
              (append (along -1) (reverse (along 1))))))
         (test (lambda (i)
                 (if (memv i skipped-with)
                     'skip		; logged with the class it was joined to
                     (let*-values (((verdict reason details)
                                    (evaluate (commit-of i) judge))
                                   ;; a skipped build (it did not decide,
                                   ;; crashed, hung) skips every class of
                                   ;; that build at once: it would again
                                   ((joined)
                                    (if (and whole-builds (eq? verdict 'skip)
                                             (< (car bounds) i (cdr bounds)))
                                        (same-build-around i)
                                        '())))
                       (log-step i (symbol->string verdict) reason details
                                 round joined)
                       (for-each (lambda (k) (hash-set! tested k details))
                                 (cons i joined))
                       (set! skipped-with (append joined skipped-with))
                       (set! bad-reason reason)
                       verdict))))
         ;; a class whose build is a tested neighbour's has its verdict:
         ;; the same simulator gives the same results (exact classes)
         (anchors (make-hash-table))	; joined class -> the tested one
         (join-one (lambda (next i verdict)
                     (let ((anchor (hash-ref anchors next next)))
                       (and (not (hash-ref tested i))
                            (same-build? (commit-of anchor) (commit-of i))
                            (let ((details (hash-ref tested anchor '())))
                              (log-step i verdict
                                        (if (< anchor 0)
                                            "same build as GOOD"
                                            (format #f "same build as class ~a"
                                                    anchor))
                                        details round)
                              (hash-set! tested i details)
                              (hash-set! anchors i anchor)
                              #t)))))
         (join (lambda (lo hi skipped)
                 (let* ((top (let up ((k (+ lo 1)))
                               (if (and (< k hi) (not (memv k skipped))
                                        (join-one (- k 1) k "good"))
                                   (up (+ k 1))
                                   (- k 1))))
                        (bottom (let down ((k (- hi 1)))
                                  (if (and (> k top) (not (memv k skipped))
                                           (join-one (+ k 1) k "bad"))
                                      (down (- k 1))
                                      (+ k 1)))))
                   (values top bottom skipped-with))))
         ;; GOOD and BAD are of the first round, with its picks
         (pending (round-picks (iota (max 0 (- n 1))) -1 (- n 1) width)))
    (begin-round (cons* -1 (- n 1) pending))
    (check-good judge round)
    (progress (commits-in -1 (- n 1))
              (+ (if round 0 1) (ceil-log (+ width 1) n)))
    (case (test (- n 1))
      ((good) '(no-regression))
      ((skip) (usage-error "BAD '~a' cannot be tested: ~a"
                           (session 'bad-name) bad-reason))
      (else
       (search n width
               (lambda (picks lo hi open)
                 (progress (commits-in lo hi)
                           (ceil-log (+ width 1) (+ 1 (length open))))
                 (unless (or (null? picks) (equal? picks pending))
                   (begin-round picks))
                 (set! pending '())
                 (set! bounds (cons lo hi))
                 ;; in class order, one after another
                 (let loop ((ps picks) (verdicts '()))
                   (if (null? ps)
                       (reverse verdicts)
                       (loop (cdr ps) (cons (test (car ps)) verdicts)))))
               join
               #:away? whole-builds)))))

(define (bisect-with strategy judge predicate)
  "Run STRATEGY (default-strategy if #f) with JUDGE, or a judge made from
PREDICATE, or the default judge: the answer is (culprit CLASS),
(no-regression) or (ambiguous CLASS ...)."
  ((or strategy default-strategy)
   (cond (judge judge)
         (predicate (predicate->judge predicate))
         (else (default-judge)))))
