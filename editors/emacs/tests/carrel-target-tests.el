;;; carrel-target-tests.el --- ERT tests of word targets  -*- lexical-binding: t; -*-

;;; Commentary:

;; Loaded by tests/run.sh after carrel-order-tests.el, whose helpers these
;; use.  T asks a number and sends `carrel.setTarget'; the words show only
;; in the summary the server composes.

;;; Code:

(require 'carrel-order-tests)

(ert-deftest carrel-test-set-target-sends-words ()
  "T sends carrel.setTarget with the number typed, or null for an empty answer."
  (carrel-test--with-library
    (carrel-test--project "My Poems" "poetry")
    (carrel-test--file "My Poems" "Draft" "Spring")
    (carrel-test--goto "My Poems" "Draft" "Spring.md")
    (let ((sent (carrel-test--recording
                  (carrel-test--answering '("1500") (carrel-test--press "T")))))
      (should (assoc "Word target for “Spring.md” (empty clears it): " carrel-test--asked))
      (should (equal (carrel-test--commands-sent sent "carrel.setTarget")
                     (list (list :uri (carrel-test--draft-uri "Spring.md") :words 1500)))))
    (carrel-test--goto "My Poems")
    (let ((sent (carrel-test--recording
                  (carrel-test--answering '("") (carrel-test--press "T")))))
      (should (equal (carrel-test--commands-sent sent "carrel.setTarget")
                     (list (list :uri (carrel--path-to-uri (carrel-test--path "My Poems")) :words nil)))))
    (let ((sent (carrel-test--recording
                  (carrel-test--answering '(quit)
                    (condition-case nil (carrel-test--press "T") (quit nil))))))
      (should (equal (carrel-test--commands-sent sent "carrel.setTarget") nil)))))

(ert-deftest carrel-test-set-target-shows-in-summary ()
  "A target set with T reaches the file row's summary, as the server words it."
  (skip-unless (carrel-test--server-offers-p "carrel.setTarget"))
  (carrel-test--with-library
    (carrel-test--project "My Poems" "poetry")
    (carrel-test--file "My Poems" "Draft" "Spring")
    (carrel-test--goto "My Poems" "Draft" "Spring.md")
    (carrel-test--answering '("1500") (carrel-test--press "T"))
    (carrel-test--wait (lambda () (equal (plist-get (carrel--node-at-point) :target) 1500))
                       "the row to learn its target")
    (let ((summary (plist-get (carrel--node-at-point) :summary)))
      (should (string-match-p "1,500" summary))
      (should (string-suffix-p (concat "Spring.md  " summary) (carrel-test--row "Spring.md"))))))

(provide 'carrel-target-tests)
;;; carrel-target-tests.el ends here
