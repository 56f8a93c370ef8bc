;;; carrel-snapshot-tests.el --- ERT tests of snapshots in the binder  -*- lexical-binding: t; -*-

;;; Commentary:

;; Loaded by tests/run.sh after carrel-order-tests.el, whose helpers these
;; use.  S takes a snapshot (`carrel.snapshot'); H lists a file's
;; snapshots (`carrel.snapshots'), then compares one with the file in
;; ediff (`carrel.compareSnapshot') or rolls the file back to it
;; (`carrel.rollBack'), against the real server.

;;; Code:

(require 'carrel-order-tests)
(require 'ediff)

(defun carrel-test--snapshot-label (uri)
  "Return the Snapshots picker's row of the newest snapshot of URI, as the server lists it."
  (let ((snapshot (aref (plist-get (carrel--execute carrel-test--conn "carrel.snapshots" :uri uri) :snapshots) 0)))
    (concat (plist-get snapshot :date)
            (if (plist-get snapshot :title) (concat " · " (plist-get snapshot :title)) "")
            (format " · %s words" (plist-get snapshot :words)))))

(defun carrel-test--end-ediff ()
  "Close every ediff session, leaving its file buffers."
  (dolist (buffer (buffer-list))
    (when (string-prefix-p "*Ediff" (buffer-name buffer))
      (kill-buffer buffer)))
  (delete-other-windows))

(ert-deftest carrel-test-snapshot-compare-roll-back ()
  "S takes a titled snapshot; H compares it in ediff with its summary, then rolls the file back to it."
  (carrel-test--with-library
    (carrel-test--project "My Poems" "poetry")
    (carrel-test--file "My Poems" "Draft" "Spring")
    (let* ((path (carrel-test--path "My Poems" "Draft" "Spring.md"))
           (uri (carrel--path-to-uri path)))
      (write-region "one two three\n" nil path)
      (carrel-test--goto "My Poems" "Draft" "Spring.md")
      (carrel-test--press "H")
      (should (string-match-p "“Spring.md” has no snapshots yet\\." (carrel-test--messages)))
      (let ((sent (carrel-test--recording
                    (carrel-test--answering '("Before the cut") (carrel-test--press "S")))))
        (should (assoc "Snapshot title (optional): " carrel-test--asked))
        (should (equal (carrel-test--commands-sent sent "carrel.snapshot")
                       (list (list :uri uri :title "Before the cut")))))
      (carrel-test--wait (lambda () (string-match-p "Took a snapshot of “Spring.md”\\." (carrel-test--messages)))
                         "the server's report of the snapshot")
      (write-region "one four\n" nil path)
      (let* ((label (carrel-test--snapshot-label uri))
             (sent (carrel-test--recording
                     (carrel-test--answering (list label "Compare with the current text")
                       (carrel-test--press "H"))))
             (date (car (split-string label " · "))))
        (should (string-match-p "\\` · Before the cut · 3 words\\'" (substring label (length date))))
        (should (equal (carrel-test--asked "Snapshots of “Spring.md”: ") (list label)))
        (should (equal (carrel-test--asked (format "Snapshot of %s: " date))
                       '("Compare with the current text" "Roll back to this snapshot")))
        (should (equal (length (carrel-test--commands-sent sent "carrel.compareSnapshot")) 1))
        ;; Ediff shows the snapshot, read-only, against the file.
        (let* ((buffers (mapcar #'window-buffer (window-list)))
               (snapshot (seq-find (lambda (b) (string-match-p "/\\.carrel/snapshots/" (or (buffer-file-name b) "")))
                                   buffers)))
          (should (seq-find (lambda (b) (string-prefix-p "*Ediff Control Panel" (buffer-name b))) buffers))
          (should snapshot)
          (should (buffer-local-value 'buffer-read-only snapshot))
          (should (equal (with-current-buffer snapshot (buffer-string)) "one two three\n"))
          (should (seq-find (lambda (b) (equal (buffer-file-name b) path)) buffers)))
        (should (string-match-p "^\\+1 −2 words$" (carrel-test--messages)))
        (carrel-test--end-ediff)
        (with-current-buffer (carrel--tree-buffer carrel-test--conn)
          (carrel-test--goto "My Poems" "Draft" "Spring.md")
          (setq sent (carrel-test--recording
                       (carrel-test--answering (list label "Roll back to this snapshot")
                         (carrel-test--press "H"))))
          (should (equal (length (carrel-test--commands-sent sent "carrel.rollBack")) 1))))
      (should (equal (with-temp-buffer (insert-file-contents path) (buffer-string)) "one two three\n"))
      (carrel-test--wait (lambda () (string-match-p "^Rolled “Spring.md” back to the snapshot" (carrel-test--messages)))
                         "the server's report of the rollback")
      ;; The open, unmodified buffer shows the text rolled back to, without a question.
      (with-current-buffer (carrel-test--visiting path)
        (should (equal (buffer-string) "one two three\n"))
        (should-not (buffer-modified-p))))))

(ert-deftest carrel-test-snapshot-of-folder-without-title ()
  "S on a folder with an empty title snapshots each file, sending no title."
  (carrel-test--with-library
    (carrel-test--project "My Poems" "poetry")
    (carrel-test--file "My Poems" "Draft" "Spring")
    (carrel-test--file "My Poems" "Draft" "Summer")
    (carrel-test--goto "My Poems" "Draft")
    (let ((sent (carrel-test--recording
                  (carrel-test--answering '("") (carrel-test--press "S")))))
      (should (equal (carrel-test--commands-sent sent "carrel.snapshot")
                     (list (list :uri (carrel--path-to-uri (carrel-test--path "My Poems" "Draft")))))))
    (carrel-test--wait (lambda () (string-match-p "Took a snapshot of each of the 2 files in “Draft”\\."
                                                  (carrel-test--messages)))
                       "the server's report")
    (let ((sent (carrel-test--recording
                  (carrel-test--answering '(quit)
                    (condition-case nil (carrel-test--press "S") (quit nil))))))
      (should (equal (carrel-test--commands-sent sent "carrel.snapshot") nil)))))

(ert-deftest carrel-test-picker-numbers-repeated-rows ()
  "Two snapshots with the same date, title and words can both be chosen: the second is numbered."
  (let ((rows (list (list :date "2026-11-28 01:15 UTC" :words 3 :name "newer")
                    (list :date "2026-11-28 01:15 UTC" :words 3 :name "older"))))
    (should (equal (plist-get (carrel-test--answering '("2026-11-28 01:15 UTC · 3 words (2)")
                                (carrel--pick "Snapshots of “Spring.md”: " rows #'carrel--snapshot-label))
                              :name)
                   "older"))
    (should (equal (carrel-test--asked "Snapshots of “Spring.md”: ")
                   '("2026-11-28 01:15 UTC · 3 words" "2026-11-28 01:15 UTC · 3 words (2)")))))

(provide 'carrel-snapshot-tests)
;;; carrel-snapshot-tests.el ends here
