;;; carrel-submission-tests.el --- ERT tests of submissions in the binder  -*- lexical-binding: t; -*-

;;; Commentary:

;; Loaded by tests/run.sh after carrel-order-tests.el, whose helpers these
;; use.  O submits the file at point to a market (`carrel.submit'), I
;; lists submissions (`carrel/submissions') and sets a piece's status
;; (`carrel.setSubmissionStatus') or withdraws an accepted piece
;; everywhere else (`carrel.withdrawOthers'), M sets a market's details
;; (`carrel.setMarket'), against the real server.

;;; Code:

(require 'carrel-order-tests)

(defun carrel-test--market (name)
  "Make the market NAME in My Poems' Magazines."
  (carrel-test--run "carrel.newFolder"
                    :parentUri (carrel--path-to-uri (carrel-test--path "My Poems" "Magazines"))
                    :name name))

(defun carrel-test--summary-of (title)
  "Return the summary of the first row titled TITLE, or \"\"."
  (or (plist-get (carrel--node (save-excursion (carrel-test--goto-row title)
                                               (get-text-property (point) 'carrel-id)))
                 :summary)
      ""))

(defun carrel-test--submissions-label (status market)
  "Return the Submissions picker's row of Spring.md at MARKET with STATUS."
  (format "%s · %s · 2026-11-20 · Spring.md" status market))

(ert-deftest carrel-test-submit-set-status-withdraw ()
  "O submits to a market; I lists it, sets accepted, then withdraws the piece elsewhere."
  (carrel-test--with-library
    (carrel-test--project "My Poems" "poetry")
    (carrel-test--file "My Poems" "Draft" "Spring")
    (carrel-test--goto "My Poems" "Draft" "Spring.md")
    (carrel-test--press "O")
    (should (string-match-p "“My Poems” has no market yet: make a folder in Magazines, Competitions, Commissions or Other\\."
                            (carrel-test--messages)))
    (carrel-test--press "I")
    (should (string-match-p "^No submissions yet\\.$" (carrel-test--messages)))
    (carrel-test--market "Granta")
    (carrel-test--market "Review")
    (let* ((spring (carrel-test--draft-uri "Spring.md"))
           (granta (carrel--path-to-uri (carrel-test--path "My Poems" "Magazines" "Granta")))
           (review (carrel--path-to-uri (carrel-test--path "My Poems" "Magazines" "Review")))
           (sent nil))
      (dolist (market '("Granta" "Review"))
        (carrel-test--goto "My Poems" "Draft" "Spring.md")
        (setq sent (append sent (carrel-test--recording
                                  (carrel-test--answering
                                      (list (concat "Writing › My Poems › Magazines › " market) "2026-11-20")
                                    (carrel-test--press "O"))))))
      (should (equal (carrel-test--asked "Submit “Spring.md” to: ")
                     '("Writing › My Poems › Magazines › Granta" "Writing › My Poems › Magazines › Review")))
      (should (equal (carrel-test--asked "Date sent (YYYY-MM-DD): ") (format-time-string "%Y-%m-%d")))
      (should (equal (carrel-test--commands-sent sent "carrel.submit")
                     (list (list :items (vector spring) :marketUri granta :date "2026-11-20")
                           (list :items (vector spring) :marketUri review :date "2026-11-20"))))
      (carrel-test--wait (lambda () (string-match-p "out at 2" (carrel-test--summary-of "Spring.md")))
                         "the row to say the piece is out at 2 markets")
      ;; Accepted at Granta.
      (carrel-test--goto "My Poems" "Draft" "Spring.md")
      (setq sent (carrel-test--recording
                   (carrel-test--answering (list (carrel-test--submissions-label "pending" "Granta") "accepted")
                     (carrel-test--press "I"))))
      (should (equal (sort (copy-sequence (carrel-test--asked "Submissions: ")) #'string<)
                     (list (carrel-test--submissions-label "pending" "Granta")
                           (carrel-test--submissions-label "pending" "Review"))))
      (should (equal (carrel-test--asked "“Spring.md” at “Granta”: ")
                     '("pending (now)" "shortlisted" "accepted" "rejected" "withdrawn" "no response")))
      (let* ((listed (append (plist-get (carrel--request carrel-test--conn 'carrel/submissions (list :uri granta))
                                        :submissions)
                             nil))
             (record (plist-get (car listed) :id)))
        (should (equal (carrel-test--commands-sent sent "carrel.setSubmissionStatus")
                       (list (list :record record :piece "1" :status "accepted"))))
        (carrel-test--wait (lambda () (let ((summary (carrel-test--summary-of "Spring.md")))
                                        (and (string-match-p "out at 1" summary)
                                             (string-match-p "accepted" summary))))
                           "the row to say the piece is accepted and out at 1")
        ;; Then withdrawn from Review.
        (carrel-test--goto "My Poems" "Draft" "Spring.md")
        (setq sent (carrel-test--recording
                     (carrel-test--answering (list (carrel-test--submissions-label "accepted" "Granta")
                                                   "Withdraw it everywhere else")
                       (carrel-test--press "I"))))
        (should (equal (carrel-test--asked "“Spring.md” at “Granta”: ")
                       '("pending" "shortlisted" "accepted (now)" "rejected" "withdrawn" "no response"
                         "Withdraw it everywhere else")))
        (should (equal (carrel-test--commands-sent sent "carrel.withdrawOthers")
                       (list (list :record record :piece "1"))))
        (carrel-test--wait (lambda () (string-match-p "Withdrew “Spring.md” from “Review”\\." (carrel-test--messages)))
                           "the server's report of the withdrawal")
        (carrel-test--wait (lambda () (not (string-match-p "out at" (carrel-test--summary-of "Spring.md"))))
                           "the row to say the piece is out nowhere")))))

(ert-deftest carrel-test-accepted-offers-published ()
  "Accepting a piece answers the server's offer of Published: Move to Published moves it there."
  (carrel-test--with-library
    (carrel-test--project "My Poems" "poetry")
    (carrel-test--file "My Poems" "Draft" "Spring")
    (carrel-test--market "Granta")
    (carrel-test--run "carrel.submit" :items (vector (carrel-test--draft-uri "Spring.md"))
                      :marketUri (carrel--path-to-uri (carrel-test--path "My Poems" "Magazines" "Granta"))
                      :date "2026-11-20")
    (carrel-test--goto "My Poems" "Draft" "Spring.md")
    (carrel-test--answering (list (carrel-test--submissions-label "pending" "Granta") "accepted" "Move to Published")
      (carrel-test--press "I")
      (carrel-test--wait (lambda () (file-exists-p (carrel-test--path "My Poems" "Published" "Spring.md")))
                         "Spring.md in Published"))
    (should (equal (carrel-test--asked "“Spring.md” was accepted at “Granta”. Move it to Published?")
                   '("Not Now" "Move to Published")))
    (should-not (file-exists-p (carrel-test--path "My Poems" "Draft" "Spring.md")))
    (carrel-test--wait (lambda ()
                         (let ((listed (plist-get (carrel--request carrel-test--conn 'carrel/submissions nil)
                                                  :submissions)))
                           (equal (plist-get (aref (plist-get (aref listed 0) :pieces) 0) :path)
                                  "Published/Spring.md")))
                       "the record to follow the piece")))

(ert-deftest carrel-test-submit-region-then-submissions-folder ()
  "O on a region submits its files together; I on the Submissions folder lists the project's."
  (carrel-test--with-library
    (carrel-test--project "My Poems" "poetry")
    (carrel-test--file "My Poems" "Draft" "Spring")
    (carrel-test--file "My Poems" "Draft" "Summer")
    (carrel-test--market "Granta")
    (carrel-test--goto "My Poems" "Draft" "Spring.md")
    (set-mark (point))
    (carrel-test--goto "My Poems" "Draft" "Summer.md")
    (end-of-line)
    (activate-mark)
    (let ((sent (carrel-test--recording
                  (carrel-test--answering '("Writing › My Poems › Magazines › Granta" "2026-11-20")
                    (carrel-test--press "O")))))
      (should (assoc "Submit 2 pieces to: " carrel-test--asked))
      (should (equal (carrel-test--commands-sent sent "carrel.submit")
                     (list (list :items (vector (carrel-test--draft-uri "Spring.md") (carrel-test--draft-uri "Summer.md"))
                                 :marketUri (carrel--path-to-uri (carrel-test--path "My Poems" "Magazines" "Granta"))
                                 :date "2026-11-20")))))
    (carrel-test--goto "My Poems" "Submissions")
    (let ((sent (carrel-test--recording
                  (carrel-test--answering '(quit)
                    (condition-case nil (carrel-test--press "I") (quit nil))))))
      (should (member (list :uri (carrel--path-to-uri (carrel-test--path "My Poems")))
                      (mapcar #'cadr (seq-filter (lambda (m) (memq (car m) '(carrel/submissions :carrel/submissions)))
                                                 sent))))
      (should (equal (sort (copy-sequence (carrel-test--asked "Submissions: ")) #'string<)
                     '("pending · Granta · 2026-11-20 · Spring.md" "pending · Granta · 2026-11-20 · Summer.md"))))))

(ert-deftest carrel-test-submit-asks-before-simultaneous ()
  "O to a market that takes no simultaneous submissions asks the server's question; Cancel records nothing."
  (carrel-test--with-library
    (carrel-test--project "My Poems" "poetry")
    (carrel-test--file "My Poems" "Draft" "Spring")
    (carrel-test--market "Granta")
    (carrel-test--market "Review")
    (carrel-test--run "carrel.setMarket" :uri (carrel--path-to-uri (carrel-test--path "My Poems" "Magazines" "Review"))
                      :fields (list :simultaneous :json-false))
    (carrel-test--goto "My Poems" "Draft" "Spring.md")
    (carrel-test--answering '("Writing › My Poems › Magazines › Granta" "2026-11-20")
      (carrel-test--press "O"))
    (dolist (answer '("Cancel" "Submit Anyway"))
      (carrel-test--goto "My Poems" "Draft" "Spring.md")
      (carrel-test--answering (list "Writing › My Poems › Magazines › Review" "2026-11-21" answer)
        (carrel-test--press "O"))
      (let ((question (assoc "“Review” does not take simultaneous submissions, and “Spring.md” is still out at “Granta”. Submit anyway?"
                             carrel-test--asked)))
        (should (equal (cdr question) '("Cancel" "Submit Anyway")))))
    (let ((listed (plist-get (carrel--request carrel-test--conn 'carrel/submissions
                                              (list :uri (carrel-test--draft-uri "Spring.md")))
                             :submissions)))
      ;; The one answered Cancel was never recorded.
      (should (equal (sort (mapcar (lambda (submission) (plist-get submission :sent)) listed) #'string<)
                     '("2026-11-20" "2026-11-21"))))))

(ert-deftest carrel-test-market-details ()
  "M asks each detail of the market at point, prefilled, and sends those changed; .carrel-market holds them."
  (carrel-test--with-library
    (carrel-test--project "My Poems" "poetry")
    (carrel-test--market "Granta")
    (carrel-test--goto "My Poems" "Draft")
    (carrel-test--press "M")
    (should (string-match-p "Market details are kept on a folder in Magazines, Competitions, Commissions or Other\\."
                            (carrel-test--messages)))
    (carrel-test--goto "My Poems" "Magazines" "Granta")
    (let* ((granta (carrel--path-to-uri (carrel-test--path "My Poems" "Magazines" "Granta")))
           (sent (carrel-test--recording
                   (carrel-test--answering '("2026-12-31" "" "$3" "" "no" "Poems only")
                     (carrel-test--press "M"))))
           (commands (carrel-test--commands-sent sent "carrel.setMarket"))
           (fields (plist-get (car commands) :fields)))
      (should (equal (mapcar #'car carrel-test--asked)
                     (reverse '("Deadline (YYYY-MM-DD, empty for none): " "Reading period: " "Fee: " "URL: "
                                "Simultaneous submissions (yes/no): " "Notes: "))))
      (should (equal (length commands) 1))
      (should (equal (plist-get (car commands) :uri) granta))
      ;; Only the answered fields: an empty answer leaves a field as it is.
      (should (equal (cl-loop for (field _value) on fields by #'cddr collect field)
                     '(:deadline :fee :simultaneous :notes)))
      (should (equal (plist-get fields :deadline) "2026-12-31"))
      (should (equal (plist-get fields :fee) "$3"))
      (should (eq (plist-get fields :simultaneous) :json-false))
      (should (equal (plist-get fields :notes) "Poems only"))
      (carrel-test--wait (lambda () (string-match-p "Saved the details of “Granta”\\." (carrel-test--messages)))
                         "the server's report")
      (let ((market (json-read-file (carrel-test--path "My Poems" "Magazines" "Granta" ".carrel-market"))))
        (should (equal (alist-get 'value (alist-get 'deadline (alist-get 'fields market))) "2026-12-31"))
        (should (equal (alist-get 'value (alist-get 'fee (alist-get 'fields market))) "$3"))
        (should (eq (alist-get 'value (alist-get 'simultaneous (alist-get 'fields market))) :json-false))
        (should (equal (alist-get 'value (alist-get 'notes (alist-get 'fields market))) "Poems only"))))
    ;; Asked again, each question holds the market's value: one left as it
    ;; was is not sent, one emptied is sent as null and clears the field.
    (carrel-test--goto "My Poems" "Magazines" "Granta")
    (let* ((sent (carrel-test--recording
                   (carrel-test--answering '("2026-12-31" "March" "" "" "no" "Poems only")
                     (carrel-test--press "M"))))
           (commands (carrel-test--commands-sent sent "carrel.setMarket")))
      (should (equal (mapcar #'cdr carrel-test--asked)
                     (reverse '("2026-12-31" "" "$3" "" "no" "Poems only"))))
      (should (equal (length commands) 1))
      (should (equal (plist-get (car commands) :fields) '(:readingPeriod "March" :fee nil)))
      (let ((fields (alist-get 'fields (json-read-file (carrel-test--path "My Poems" "Magazines" "Granta"
                                                                          ".carrel-market")))))
        (should (assq 'fee fields))
        (should (equal (alist-get 'value (alist-get 'readingPeriod fields)) "March"))
        (should (equal (alist-get 'value (alist-get 'deadline fields)) "2026-12-31"))))
    ;; C-g at any prompt sends nothing.
    (carrel-test--goto "My Poems" "Magazines" "Granta")
    (let ((sent (carrel-test--recording
                  (carrel-test--answering '("2027-01-01" "Spring" quit)
                    (condition-case nil (carrel-test--press "M") (quit nil))))))
      (should (equal (carrel-test--commands-sent sent "carrel.setMarket") nil)))))

(provide 'carrel-submission-tests)
;;; carrel-submission-tests.el ends here
